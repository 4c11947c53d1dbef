package td

import (
	"math"

	"github.com/ccn-go/ccn/internal/lanes"
)

// Adam is the optimizer of the paper's Table 1 without momentum (β1 = 0),
// applied to the TD direction d = δ·z as an ascent direction:
//
//	v_i ← β2·v_i + (1−β2)·d_i²                       v_i starts at 0
//	θ_i ← θ_i + α·d_i / (√(v_i / (1−β2^n_i)) + ε)
//
// n_i counts the updates entry i has received since it appeared, so a column
// added at a stage advance gets the same bias correction as the network at its
// first step (with one global count its first steps would be α·d/√((1−β2)d²),
// a hundred times larger than α).
//
// As RMSProp's, an entry of v below lanes.AccumulatorFloor(ε) is stored as 0,
// and so is β2^n_i below 2⁻¹⁰⁰⁰ (where 1 − β2^n_i is 1 with or without it):
// θ keeps its bits, and runs past 7M steps do not compute on subnormals.
type Adam struct {
	StepSize float64 // α
	Beta2    float64 // β2; if 0 it defaults to 0.9999 (paper Table 1)
	Epsilon  float64 // ε; if 0 it defaults to 1e-8 (paper Table 1)

	v   []float64 // second-moment estimate
	pow []float64 // β2^n_i
}

var _ Optimizer[float64] = (*Adam)(nil)

func (a *Adam) beta2() float64 { return orDefault(a.Beta2, 0.9999) }

func (a *Adam) epsilon() float64 { return orDefault(a.Epsilon, 1e-8) }

// Reset implements Optimizer.
func (a *Adam) Reset(l Layout) {
	l.validate()
	a.v = make([]float64, l.Size)
	a.pow = make([]float64, l.Size)
	for i := range a.pow {
		a.pow[i] = 1
	}
}

// Remap implements Optimizer; new entries start at v = 0 with no updates.
func (a *Adam) Remap(l Layout, from []int) {
	l.validate()
	a.v = remapInto(a.v, from, 0)
	a.pow = remapInto(a.pow, from, 1)
}

// Update implements Optimizer.
func (a *Adam) Update(theta, u []float64, s float64) {
	if len(theta) != len(a.v) || len(u) != len(a.v) {
		panic("td: Adam.Update length mismatch")
	}
	b2, eps, alpha := a.beta2(), a.epsilon(), a.StepSize
	tau := lanes.AccumulatorFloor(eps)
	v, pow := a.v[:len(u)], a.pow[:len(u)]
	theta = theta[:len(u)]
	// Entries that appeared together have bit-identical powers, so the
	// correction is recomputed only where the power changes along the vector.
	lastPow, corr := math.NaN(), 0.0
	for i, ui := range u {
		g := s * ui
		vi := b2*v[i] + (1-b2)*g*g
		v[i] = vi
		if vi < tau {
			v[i] = 0
		}
		p := pow[i] * b2
		if p < 0x1p-1000 {
			p = 0
		}
		pow[i] = p
		if p != lastPow {
			lastPow, corr = p, 1/math.Sqrt(1-p)
		}
		theta[i] += alpha * g / (math.Sqrt(vi)*corr + eps)
	}
}
