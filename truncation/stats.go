package truncation

import "math"

// meanSE accumulates a mean and its standard error with Welford's update:
//
//	s.e. = s/√n,   s² = Σ(x − x̄)²/(n − 1)
type meanSE struct {
	n    int
	mean float64
	m2   float64
}

func (a *meanSE) add(x float64) {
	a.n++
	d := x - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (x - a.mean)
}

// se returns the standard error of the mean, 0 for fewer than two values.
func (a *meanSE) se() float64 {
	if a.n < 2 {
		return 0
	}
	return math.Sqrt(a.m2/float64(a.n-1)) / math.Sqrt(float64(a.n))
}

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
