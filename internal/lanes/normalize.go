package lanes

import "math"

// Normalize folds h[k] into the running statistics of online normalization
// (package forward documents it) and writes the normalized value, for every
// k < len(h):
//
//	μ' = β·μ + (1−β)·h      σ²' = β·σ² + (1−β)·(μ'−h)·(μ−h)
//	scale = 1/max(ε, σ')    out = (h − μ')·scale
//
// with oneMinus = 1−β. A NaN σ propagates (the maximum is taken by
// comparison). Both paths agree bitwise.
func Normalize(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	out, mean, variance, scale = out[:len(h)], mean[:len(h)], variance[:len(h)], scale[:len(h)]
	if useLanes {
		normalizeLanes(out, h, mean, variance, scale, beta, oneMinus, eps)
		clearUpper()
		return
	}
	normalizeScalar(out, h, mean, variance, scale, beta, oneMinus, eps)
}

func normalizeScalar(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	for k, hk := range h {
		muPrev := mean[k]
		mu := beta*muPrev + oneMinus*hk
		v := beta*variance[k] + oneMinus*(mu-hk)*(muPrev-hk)
		mean[k], variance[k] = mu, v
		sd := math.Sqrt(v)
		if sd < eps {
			sd = eps
		}
		s := 1 / sd
		scale[k] = s
		out[k] = (hk - mu) * s
	}
}
