package forward

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// AutoFreeze configures stages that freeze when their features have
// converged (the paper's §6 and Appendix A.8: "waiting for a feature to
// converge before freezing it"), in place of a fixed StepsPerStage. Every
// Window steps the network measures the displacement of the learning stage's
// column parameters θ (their blocks; the head is not a feature) since the
// previous measurement, and the cosine between two successive displacements:
//
//	D_j = θ(jK) − θ((j−1)K)                          K = Window, j ≥ 1
//	c_j = ⟨D_j, D_{j−1}⟩ / (‖D_j‖·‖D_{j−1}‖)          j ≥ 2 (0 if either is 0)
//	ρ_j = Σ_{i=2..j} β^{j−i}·c_i / Σ_{i=2..j} β^{j−i}   β = Decay
//
// with θ(n) the parameters at the start of the stage's step n, as the
// optimizer left them. The stage freezes at the first step n with
//
//	n ≥ Max,   or   n ≥ Min and ρ_j < Threshold (j ≥ 2)
//
// While the features learn, the parameters drift and successive
// displacements point the same way (c ≈ 1); once their mean has stopped
// moving they only fluctuate about it, and successive displacements, which
// share the fluctuation at their common end with opposite signs, have
// c ≈ −1/2. With a drift d over a window and fluctuations of size s
// (E‖ξ‖² = s², correlation time ≪ K), c ≈ (d² − s²)/(d² + 2s²): Threshold 0
// freezes once the drift over a window no longer exceeds the fluctuation
// (docs/equations.md, "Stages that freeze when learned"). The test depends on
// neither the step size nor the scale or number of the parameters.
//
// The zero value (Max = 0) is off.
type AutoFreeze struct {
	Min, Max  int     // shortest and longest stage, steps: 1 ≤ Min ≤ Max
	Window    int     // K ≥ 1, steps between measurements
	Threshold float64 // τ in [−1, 1]
	Decay     float64 // β in [0, 1)
}

// On reports whether a is set.
func (a AutoFreeze) On() bool { return a.Max > 0 }

// check panics if a is set and invalid.
func (a AutoFreeze) check() {
	if !a.On() {
		return
	}
	switch {
	case a.Min < 1 || a.Min > a.Max:
		panic(fmt.Sprintf("forward: AutoFreeze Min %d, Max %d: want 1 ≤ Min ≤ Max", a.Min, a.Max))
	case a.Window < 1:
		panic(fmt.Sprintf("forward: AutoFreeze Window %d, want ≥ 1", a.Window))
	case !(a.Threshold >= -1 && a.Threshold <= 1):
		panic(fmt.Sprintf("forward: AutoFreeze Threshold %v, want in [−1, 1]", a.Threshold))
	case !(a.Decay >= 0 && a.Decay < 1):
		panic(fmt.Sprintf("forward: AutoFreeze Decay %v, want in [0, 1)", a.Decay))
	}
}

// drift is the state of the AutoFreeze test of the learning stage.
type drift struct {
	anchor  []float64 // θ at the last measurement
	prev    []float64 // D_{j−1}
	prevSq  float64   // ‖D_{j−1}‖²
	windows int       // measurements j taken in the stage
	left    int       // steps to the next measurement
	num     float64   // Σ β^{j−i}·c_i
	den     float64   // Σ β^{j−i}
}

// driftStart begins the test d of a stage whose column parameters are theta.
func driftStart[T arch.Float](d *drift, theta []T, window int) {
	if cap(d.anchor) < len(theta) {
		d.anchor = make([]float64, len(theta))
		d.prev = make([]float64, len(theta))
	}
	d.anchor, d.prev = d.anchor[:len(theta)], d.prev[:len(theta)]
	for i, v := range theta {
		d.anchor[i] = float64(v)
	}
	clear(d.prev)
	d.prevSq, d.windows, d.left, d.num, d.den = 0, 0, window, 0, 0
}

// mean returns ρ_j, and false before the first cosine (j < 2).
func (d *drift) mean() (float64, bool) {
	if d.den == 0 {
		return 0, false
	}
	return d.num / d.den, true
}

// measure takes measurement j of d at the parameters theta: D_j, c_j, ρ_j;
// then the anchor becomes theta.
func measure[T arch.Float](d *drift, theta []T, decay float64) {
	var dot, sq float64
	for i, v := range theta {
		dj := float64(v) - d.anchor[i]
		dot += dj * d.prev[i]
		sq += dj * dj
		d.prev[i] = dj
		d.anchor[i] = float64(v)
	}
	d.windows++
	if d.windows >= 2 {
		c := 0.0
		if sq > 0 && d.prevSq > 0 {
			c = dot / math.Sqrt(sq*d.prevSq)
		}
		d.num = decay*d.num + c
		d.den = decay*d.den + 1
	}
	d.prevSq = sq
}

// freezeDue advances the test d by one step of the learning stage, which
// has taken steps steps, at column parameters theta, and reports whether the
// stage freezes before this step.
func freezeDue[T arch.Float](d *drift, a AutoFreeze, steps int, theta []T) bool {
	if steps > 0 {
		if d.left--; d.left == 0 {
			measure(d, theta, a.Decay)
			d.left = a.Window
		}
	}
	if steps >= a.Max {
		return true
	}
	rho, ok := d.mean()
	return steps >= a.Min && ok && rho < a.Threshold
}

// StageEnds returns, for every stage frozen so far, the number of steps the
// network had taken (since it was made) when the stage froze: stage s
// learned over steps [StageEnds[s−1], StageEnds[s]) (from 0 for s = 0). It
// is a view; do not modify it.
func (n *NetworkOf[T]) StageEnds() []int { return n.ends }

// Drift returns ρ, the mean cosine of the AutoFreeze test of the learning
// stage, and false if the test has no cosine yet (or AutoFreeze is off).
func (n *NetworkOf[T]) Drift() (float64, bool) {
	if !n.cfg.AutoFreeze.On() {
		return 0, false
	}
	return n.drift.mean()
}
