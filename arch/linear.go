package arch

import "fmt"

// Linear is the shape of the memoryless control: a linear prediction from
// the current observation alone, optionally normalized online (paper §3.4,
// Equation 11, applied to the inputs instead of the features),
//
//	x̂_{t,i} = (x_{t,i} − μ_{t,i}) / max(ε, σ_{t,i})      x̂ = x if Norm is off
//	y_t     = Σ_i w_i·x̂_{t,i} + b
//
// Its parameter vector is w (Inputs weights) then b; the gradient of y_t is
// (x̂_t, 1), with μ and σ held constant. Having no state, it can predict only
// what a single observation shows: the control that tells whether a stream
// needs memory.
type Linear struct {
	Inputs int
	Norm   Normalization
}

// NumParams returns Inputs + 1.
func (l Linear) NumParams() int { return l.Inputs + 1 }

// Validate panics if l has no input.
func (l Linear) Validate() {
	if l.Inputs < 1 {
		panic(fmt.Sprintf("arch: linear with %d inputs", l.Inputs))
	}
}
