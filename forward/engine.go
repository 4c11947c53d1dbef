package forward

// Engine is the interface the engines of this package share: a one-step
// prediction and its gradient with respect to the vector returned by Params.
//
//	y_t = Step(x_t)      Grad(dst): dst = ∂y_t/∂θ
//
// For a Column the prediction is h_t itself.
type Engine interface {
	Step(x []float64) float64
	Grad(dst []float64)
	Params() []float64
	NumParams() int
	Reset()
	// OpsPerStep counts the arithmetic of one Step plus one Grad.
	OpsPerStep() int
}

var (
	_ Engine = (*Column)(nil)
	_ Engine = (*DenseRTRL)(nil)
	_ Engine = (*Network)(nil)
)
