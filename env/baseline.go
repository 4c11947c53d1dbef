package env

// ConstantBaseline runs e for the given number of steps and returns the mean
// of the returns G_t and the mean squared error of predicting that mean at
// every step, which is the error of the best constant prediction:
//
//	mean = (1/n)·Σ_t G_t
//	mse  = (1/n)·Σ_t (G_t − mean)²
//
// A learner whose error stays above mse has learned nothing a constant could
// not. Welford's update keeps the sum accurate over long streams. It panics
// if steps < 1.
func ConstantBaseline(e Env, steps int) (mean, mse float64) {
	if steps < 1 {
		panic("env: ConstantBaseline needs at least one step")
	}
	x := make([]float64, e.ObservationSize())
	var m2 float64
	for i := range steps {
		_, g := e.Next(x)
		d := g - mean
		mean += d / float64(i+1)
		m2 += d * (g - mean)
	}
	return mean, m2 / float64(steps)
}
