package td

import (
	"fmt"

	"github.com/ccn-go/ccn/internal/lanes"
)

// RMSProp is the optimizer the authors' C++ code runs under the name Adam: no
// momentum, no bias correction, a second-moment accumulator that starts at 1,
// and the output layer's step size divided by the number of features it reads:
//
//	v_i ← β·v_i + (1−β)·d_i²                 v_i starts at 1
//	θ_i ← θ_i + α_i·d_i / (√v_i + ε)
//	α_i = α/F for the head's weights and bias (F features; α with FullHeadStep), α elsewhere
//
// Starting at 1 makes early steps about α·d (plain gradient ascent) until the
// accumulator has seen about 1/(1−β) updates. Dividing the head's step size by
// F keeps the prediction's change per step independent of the number of
// (normalized) features as stages add them. The authors divide it in their
// column networks but not in their dense LSTM; FullHeadStep gives α_i = α
// for the head as well.
//
// Entries of v that decay below 2⁻¹⁰⁰⁰ (a weight whose gradient stays 0, as
// a never-lit pixel's does, after 7M steps) are stored as 0
// (lanes.AccumulatorFloor): θ keeps its bits, and the steps no longer pay
// for subnormal arithmetic.
type RMSProp struct {
	StepSize     float64 // α
	Beta         float64 // β; if 0 it defaults to 0.9999 (the authors' value)
	Epsilon      float64 // ε; if 0 it defaults to 1e-8
	FullHeadStep bool    // step the head with α, not α/F

	v      []float64
	layout Layout
}

var _ Optimizer[float64] = (*RMSProp)(nil)

func (r *RMSProp) beta() float64 { return orDefault(r.Beta, 0.9999) }

func (r *RMSProp) epsilon() float64 { return orDefault(r.Epsilon, 1e-8) }

// headStepSize returns the head's α_i: α/F, or α with FullHeadStep.
func (r *RMSProp) headStepSize() float64 {
	if r.FullHeadStep {
		return r.StepSize
	}
	return r.StepSize / float64(r.layout.Features)
}

// Reset implements Optimizer.
func (r *RMSProp) Reset(l Layout) {
	l.validate()
	r.layout = l
	r.v = make([]float64, l.Size)
	for i := range r.v {
		r.v[i] = 1
	}
}

// Remap implements Optimizer; new entries start at v = 1.
func (r *RMSProp) Remap(l Layout, from []int) {
	l.validate()
	r.layout = l
	r.v = remapInto(r.v, from, 1)
}

// Update implements Optimizer.
func (r *RMSProp) Update(theta, u []float64, s float64) {
	if len(theta) != len(r.v) || len(u) != len(r.v) {
		panic("td: RMSProp.Update length mismatch")
	}
	b, eps := r.beta(), r.epsilon()
	l := r.layout
	h0, h1 := l.HeadStart, l.HeadEnd
	rmsUpdate(theta[:h0], u[:h0], r.v[:h0], s, r.StepSize, b, eps)
	rmsUpdate(theta[h0:h1], u[h0:h1], r.v[h0:h1], s, r.headStepSize(), b, eps)
	rmsUpdate(theta[h1:], u[h1:], r.v[h1:], s, r.StepSize, b, eps)
}

var _ TraceFolder[float64] = (*RMSProp)(nil)

// UpdateFold implements TraceFolder: the body in one pass
// (lanes.RMSPropFold), the head (a few entries) in Update's pass and then the
// fold's.
func (r *RMSProp) UpdateFold(theta, z []float64, s, decay float64, g []float64) {
	l := r.layout
	h0, h1 := l.HeadStart, l.HeadEnd
	if len(theta) != len(r.v) || len(z) != len(r.v) || len(g) != len(r.v) || h1 != l.Size {
		panic(fmt.Sprintf("td: RMSProp.UpdateFold of %d entries (layout %+v) with a gradient of %d",
			len(z), l, len(g)))
	}
	b, eps := r.beta(), r.epsilon()
	lanes.RMSPropFold(theta[:h0], z[:h0], r.v[:h0], g[:h0], s, r.StepSize, b, eps, decay, 1)
	rmsUpdate(theta[h0:h1], z[h0:h1], r.v[h0:h1], s, r.headStepSize(), b, eps)
	lanes.ScaleAdd(z[h0:h1], decay, 1, g[h0:h1]) // 1·g is g exactly
}

// rmsUpdate applies the update to one block (package lanes: four entries per
// instruction in the simd build).
func rmsUpdate(theta, u, v []float64, s, alpha, b, eps float64) {
	lanes.RMSProp(theta, u, v, s, alpha, b, eps)
}
