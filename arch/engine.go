package arch

// Engine is a gradient engine stepped online, the one interface every engine
// (forward.Column, forward.DenseRTRL, forward.Network, backward.TBPTT) and
// every learner of package experiments implements:
//
//	y_t = Step(x_t)      Grad(dst): dst = ∂y_t/∂θ      θ = Params()
//
// Params is a writable view of θ (NumParams values) that the engine reads at
// every step; Grad writes the gradient of the latest prediction with respect
// to it.
type Engine interface {
	Step(x []float64) float64
	Grad(dst []float64)
	Params() []float64
	NumParams() int
}
