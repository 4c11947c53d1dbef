package arch

// Float is the element type of an engine's parameter-sized vectors: θ, the
// frozen parameters, the RTRL traces, the gradient and an optimizer's state.
// float64 is every engine's default; float32 selects the opt-in float32
// engine (docs/performance.md), whose observations, predictions and per-step
// scalars stay float64.
type Float interface{ float32 | float64 }

// EngineOf is a gradient engine stepped online whose parameters are of type
// T, the one interface every engine and every learner of package
// experiments implements:
//
//	y_t = Step(x_t)      Grad(dst): dst = ∂y_t/∂θ      θ = Params()
//
// Params is a writable view of θ (NumParams values) that the engine reads at
// every step; Grad writes the gradient of the latest prediction with respect
// to it. Observations x and predictions y are float64 whatever T is.
type EngineOf[T Float] interface {
	Step(x []float64) float64
	Grad(dst []T)
	Params() []T
	NumParams() int
}

// Engine is the float64 engine (forward.Column, forward.DenseRTRL,
// forward.Network, backward.TBPTT, ...).
type Engine = EngineOf[float64]
