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
