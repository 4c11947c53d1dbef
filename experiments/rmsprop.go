package experiments

import "math"

// RMSProp is the optimizer the authors' C++ code runs under the name Adam: no
// momentum, no bias correction, a second-moment accumulator that starts at 1,
// and the output layer's step size divided by the number of features it reads:
//
//	v_i ← β·v_i + (1−β)·d_i²                 v_i starts at 1
//	θ_i ← θ_i + α_i·d_i / (√v_i + ε)
//	α_i = α/F for the head's weights and bias (F features), α elsewhere
//
// Starting at 1 makes early steps about α·d (plain gradient ascent) until the
// accumulator has seen about 1/(1−β) updates. Dividing the head's step size by
// F keeps the prediction's change per step independent of the number of
// (normalized) features as stages add them.
type RMSProp struct {
	StepSize float64 // α
	Beta     float64 // β; if 0 it defaults to 0.9999 (the authors' value)
	Epsilon  float64 // ε; if 0 it defaults to 1e-8

	v      []float64
	layout Layout
}

var _ Optimizer = (*RMSProp)(nil)

func (r *RMSProp) beta() float64 { return orDefault(r.Beta, 0.9999) }

func (r *RMSProp) epsilon() float64 { return orDefault(r.Epsilon, 1e-8) }

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
		panic("experiments: RMSProp.Update length mismatch")
	}
	b, eps := r.beta(), r.epsilon()
	l := r.layout
	h0, h1 := l.HeadStart, l.HeadEnd
	rmsUpdate(theta[:h0], u[:h0], r.v[:h0], s, r.StepSize, b, eps)
	rmsUpdate(theta[h0:h1], u[h0:h1], r.v[h0:h1], s, r.StepSize/float64(l.Features), b, eps)
	rmsUpdate(theta[h1:], u[h1:], r.v[h1:], s, r.StepSize, b, eps)
}

// rmsUpdate applies the update to one block. Square roots and divisions
// bound its speed, so it takes four entries at a time and shares one
// division among their four reciprocals,
//
//	1/a_0 = a_1·(a_2·a_3)/(a_0·a_1·a_2·a_3)   and likewise for a_1, a_2, a_3,
//
// which agrees with four divisions to a few units in the last place. The
// product cannot underflow (each a_k ≥ ε); it overflows only for directions
// beyond 1e77, far past divergence.
func rmsUpdate(theta, u, v []float64, s, alpha, b, eps float64) {
	v, theta = v[:len(u)], theta[:len(u)]
	c := 1 - b
	n := len(u) &^ 3
	for i := 0; i < n; i += 4 {
		g0, g1, g2, g3 := s*u[i], s*u[i+1], s*u[i+2], s*u[i+3]
		v0 := b*v[i] + c*g0*g0
		v1 := b*v[i+1] + c*g1*g1
		v2 := b*v[i+2] + c*g2*g2
		v3 := b*v[i+3] + c*g3*g3
		v[i], v[i+1], v[i+2], v[i+3] = v0, v1, v2, v3
		a0 := math.Sqrt(v0) + eps
		a1 := math.Sqrt(v1) + eps
		a2 := math.Sqrt(v2) + eps
		a3 := math.Sqrt(v3) + eps
		p01, p23 := a0*a1, a2*a3
		inv := alpha / (p01 * p23)
		i01, i23 := inv*p23, inv*p01
		theta[i] += g0 * a1 * i01
		theta[i+1] += g1 * a0 * i01
		theta[i+2] += g2 * a3 * i23
		theta[i+3] += g3 * a2 * i23
	}
	for i := n; i < len(u); i++ {
		g := s * u[i]
		vi := b*v[i] + c*g*g
		v[i] = vi
		theta[i] += alpha * g / (math.Sqrt(vi) + eps)
	}
}
