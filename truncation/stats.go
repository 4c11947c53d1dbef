package truncation

import "math"

// compareGrads returns ‖g−exact‖/‖exact‖ and the cosine of the angle between
// g and exact (0 when either is zero).
func compareGrads(g, exact []float64) (relErr, cos float64) {
	var diff, ng, ne, dot float64
	for i, e := range exact {
		d := g[i] - e
		diff += d * d
		ng += g[i] * g[i]
		ne += e * e
		dot += g[i] * e
	}
	if ne == 0 {
		return math.Inf(1), 0
	}
	relErr = math.Sqrt(diff / ne)
	if ng > 0 {
		cos = dot / math.Sqrt(ng*ne)
	}
	return relErr, cos
}

// mean returns the mean of xs (NaN when empty).
func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// meanVar returns the mean of xs and their unbiased sample variance (0 for a
// single value).
func meanVar(xs []float64) (m, v float64) {
	m = mean(xs)
	if len(xs) < 2 {
		return m, 0
	}
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}
