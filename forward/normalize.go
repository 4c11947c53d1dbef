package forward

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// normalizer keeps the running statistics of online normalization (paper
// §3.4, Equation 11) for a fixed number of values:
//
//	μ_t  = β·μ_{t-1} + (1-β)·h_t                             μ_0 = 0
//	σ²_t = β·σ²_{t-1} + (1-β)·(μ_t - h_t)·(μ_{t-1} - h_t)    σ²_0 = 1
//	ĥ_t  = (h_t - μ_t) / max(ε, σ_t)
//
// The gradient treats μ and σ as constants, so ∂ĥ/∂h = scale = 1/max(ε, σ_t).
// A disabled normalizer is the identity with scale 1.
type normalizer struct {
	enabled         bool
	decay, oneMinus float64
	eps             float64
	mean, variance  []float64
	scale           []float64
}

func newNormalizer(cfg arch.Normalization, enabled bool, n int) normalizer {
	beta, eps := cfg.DecayOrDefault(), cfg.EpsilonOrDefault()
	if enabled && !(beta > 0 && beta < 1) {
		panic(fmt.Sprintf("forward: normalization decay %v outside (0, 1)", beta))
	}
	if enabled && !(eps > 0) {
		panic(fmt.Sprintf("forward: normalization epsilon %v not positive", eps))
	}
	z := normalizer{
		enabled:  enabled,
		decay:    beta,
		oneMinus: 1 - beta,
		eps:      eps,
		mean:     make([]float64, n),
		variance: make([]float64, n),
		scale:    make([]float64, n),
	}
	z.reset()
	return z
}

// reset restores the initial statistics μ = 0, σ² = 1.
func (z *normalizer) reset() {
	clear(z.mean)
	for k := range z.variance {
		z.variance[k] = 1
		z.scale[k] = 1
	}
}

// update folds h into the statistics of value k and returns ĥ: 12 operations
// when enabled (3 for μ, 6 for σ², 1 for the scale, 2 for ĥ; the square root
// and the max are not counted), none when disabled.
func (z *normalizer) update(k int, h float64) float64 {
	if !z.enabled {
		return h
	}
	muPrev := z.mean[k]
	mu := z.decay*muPrev + z.oneMinus*h
	v := z.decay*z.variance[k] + z.oneMinus*(mu-h)*(muPrev-h)
	z.mean[k], z.variance[k] = mu, v
	// max(ε, σ) by comparison: math.Max costs as much as the rest of the
	// update, and a NaN σ still propagates (NaN < ε is false).
	sd := math.Sqrt(v)
	if sd < z.eps {
		sd = z.eps
	}
	s := 1 / sd
	z.scale[k] = s
	return (h - mu) * s
}

// updateAll folds h[j] into the statistics of value lo+j for every j and
// writes ĥ into out[j]: update for a run of values, in lanes (bitwise equal
// to update).
func (z *normalizer) updateAll(lo int, h, out []float64) {
	if !z.enabled {
		copy(out, h)
		return
	}
	if len(h) < 4 {
		// Fewer values than lanes (Constructive's stages): the call into
		// the lanes costs more than the arithmetic.
		for j, hj := range h {
			out[j] = z.update(lo+j, hj)
		}
		return
	}
	lanes.Normalize(out, h, z.mean[lo:], z.variance[lo:], z.scale[lo:], z.decay, z.oneMinus, z.eps)
}

// ops is the number of operations of one update.
func (z *normalizer) ops() int {
	if z.enabled {
		return 12
	}
	return 0
}
