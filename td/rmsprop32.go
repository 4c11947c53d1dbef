package td

import (
	"fmt"

	"github.com/ccn-go/ccn/internal/lanes"
)

// RMSProp32 is RMSProp for the float32 engine: the same update and
// defaults with θ, the direction and the second moments v in float32
// (lanes.RMSProp32; s, α, β, 1−β and ε rounded to float32).
type RMSProp32 struct {
	StepSize     float64 // α
	Beta         float64 // β; if 0 it defaults to 0.9999 (the authors' value)
	Epsilon      float64 // ε; if 0 it defaults to 1e-8
	FullHeadStep bool    // step the head with α, not α/F

	v      []float32
	layout Layout
}

var (
	_ Optimizer[float32]   = (*RMSProp32)(nil)
	_ TraceFolder[float32] = (*RMSProp32)(nil)
)

// f64 is r as an RMSProp, the one place the defaults live.
func (r *RMSProp32) f64() *RMSProp {
	return &RMSProp{StepSize: r.StepSize, Beta: r.Beta, Epsilon: r.Epsilon, FullHeadStep: r.FullHeadStep, layout: r.layout}
}

// Reset implements Optimizer.
func (r *RMSProp32) Reset(l Layout) {
	l.validate()
	r.layout = l
	r.v = make([]float32, l.Size)
	for i := range r.v {
		r.v[i] = 1
	}
}

// Remap implements Optimizer; new entries start at v = 1.
func (r *RMSProp32) Remap(l Layout, from []int) {
	l.validate()
	r.layout = l
	r.v = remapInto(r.v, from, 1)
}

// Update implements Optimizer.
func (r *RMSProp32) Update(theta, u []float32, s float64) {
	if len(theta) != len(r.v) || len(u) != len(r.v) {
		panic("td: RMSProp32.Update length mismatch")
	}
	o := r.f64()
	b, eps, head := o.beta(), o.epsilon(), o.headStepSize()
	h0, h1 := r.layout.HeadStart, r.layout.HeadEnd
	lanes.RMSProp32(theta[:h0], u[:h0], r.v[:h0], s, r.StepSize, b, eps)
	lanes.RMSPropHead32(theta[h0:], u[h0:], r.v[h0:], h1-h0, s, head, r.StepSize, b, eps)
}

// UpdateFold implements TraceFolder: the body in one pass
// (lanes.RMSPropFold32), then the head.
func (r *RMSProp32) UpdateFold(theta, z []float32, s, decay float64, g []float32) {
	l := r.layout
	h0, h1 := l.HeadStart, l.HeadEnd
	if len(theta) != len(r.v) || len(z) != len(r.v) || len(g) != len(r.v) || h1 != l.Size {
		panic(fmt.Sprintf("td: RMSProp32.UpdateFold of %d entries (layout %+v) with a gradient of %d",
			len(z), l, len(g)))
	}
	o := r.f64()
	b, eps := o.beta(), o.epsilon()
	lanes.RMSPropFold32(theta[:h0], z[:h0], r.v[:h0], g[:h0], s, r.StepSize, b, eps, decay, 1)
	lanes.RMSProp32(theta[h0:h1], z[h0:h1], r.v[h0:h1], s, o.headStepSize(), b, eps)
	lanes.ScaleAddSame32(z[h0:h1], decay, 1, g[h0:h1])
}
