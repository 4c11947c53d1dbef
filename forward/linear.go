package forward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// Linear is the memoryless control (arch.Linear): a linear prediction from
// the current, optionally normalized, observation,
//
//	x̂_t = normalize(x_t)       (paper §3.4, Equation 11, on the inputs)
//	y_t = w·x̂_t + b
//	∇y_t = (x̂_t, 1)            μ and σ held constant
//
// with the parameters w then b. It has no state: the gradient is the
// observation itself, so it needs no trace beyond TD(λ)'s own.
type Linear struct {
	// Defect injects a deliberate mistake for tests of the comparison only.
	// Linear honours PreviousStepFeatures (Grad returns x̂_{t−1} instead of
	// x̂_t, as a trace fed one step late would) and ignores the others.
	Defect Defect

	shape      arch.Linear
	params     []float64
	norm       normalizer
	xhat, prev []float64
}

// NewLinear returns the engine of shape with parameters zero and the
// normalization statistics at μ = 0, σ² = 1.
func NewLinear(shape arch.Linear) *Linear {
	shape.Validate()
	return &Linear{
		shape:  shape,
		params: make([]float64, shape.NumParams()),
		norm:   newNormalizer(shape.Norm, shape.Norm.Enabled, shape.Inputs),
		xhat:   make([]float64, shape.Inputs),
		prev:   make([]float64, shape.Inputs),
	}
}

// Shape returns the engine's shape.
func (l *Linear) Shape() arch.Linear { return l.shape }

// NumParams returns Inputs + 1.
func (l *Linear) NumParams() int { return len(l.params) }

// Params returns the parameter vector (w, then b), which callers may modify.
func (l *Linear) Params() []float64 { return l.params }

// Normalized returns x̂ of the latest step.
func (l *Linear) Normalized() []float64 { return l.xhat }

// Step folds x into the statistics and returns y = w·x̂ + b. It panics if
// len(x) != Inputs. It does not allocate.
func (l *Linear) Step(x []float64) float64 {
	if len(x) != l.shape.Inputs {
		panic(fmt.Sprintf("forward: linear input length %d, want %d", len(x), l.shape.Inputs))
	}
	if l.Defect == PreviousStepFeatures {
		copy(l.prev, l.xhat)
	}
	l.norm.updateAll(0, x, l.xhat)
	w := l.params[:len(x)]
	y := l.params[len(x)]
	for i, v := range l.xhat {
		y += w[i] * v
	}
	return y
}

// Grad writes ∇y of the latest step, (x̂, 1), into dst. It panics if
// len(dst) != NumParams.
func (l *Linear) Grad(dst []float64) {
	if len(dst) != len(l.params) {
		panic(fmt.Sprintf("forward: linear gradient length %d, want %d", len(dst), len(l.params)))
	}
	src := l.xhat
	if l.Defect == PreviousStepFeatures {
		src = l.prev
	}
	copy(dst, src)
	dst[len(src)] = 1
}

// AccumulateGrad folds the latest gradient into the trace z in one pass,
// z ← decay·z + (x̂, 1). It panics if len(z) != NumParams.
func (l *Linear) AccumulateGrad(z []float64, decay float64) {
	if len(z) != len(l.params) {
		panic(fmt.Sprintf("forward: linear trace length %d, want %d", len(z), len(l.params)))
	}
	src := l.xhat
	if l.Defect == PreviousStepFeatures {
		src = l.prev
	}
	for i, v := range src {
		z[i] = decay*z[i] + v
	}
	z[len(src)] = decay*z[len(src)] + 1
}

// OpsPerStep is the number of arithmetic operations of one Step and Grad:
// the normalization's per input, then a multiply and an add per input for
// the prediction.
func (l *Linear) OpsPerStep() int {
	return l.shape.Inputs * (l.norm.ops() + 2)
}
