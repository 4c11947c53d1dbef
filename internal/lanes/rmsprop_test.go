package lanes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns the distance between a and b in units in the last place.
func ulps(a, b float64) float64 {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	return math.Abs(a-b) / ulpOf(b)
}

// ulpOf returns the spacing of float64 at x (the smallest subnormal for 0).
func ulpOf(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// TestRMSPropMatchesDirectFormula checks both paths against the direct
// formula with one division per entry: v bitwise, θ's step within 4 ulps.
// Lengths 1 to 13 exercise the tails.
func TestRMSPropMatchesDirectFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alpha, b, eps, s := 1e-3, 0.9999, 1e-8, -0.7 // variables: constant 1-b would be exact
	for n := 1; n <= 13; n++ {
		u := make([]float64, n)
		v := make([]float64, n)
		for i := range u {
			u[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta, vGot := make([]float64, n), append([]float64(nil), v...)
		RMSProp(theta, u, vGot, s, alpha, b, eps)
		for i := range u {
			g := s * u[i]
			vi := b*v[i] + (1-b)*g*g
			want := alpha * g / (math.Sqrt(vi) + eps)
			if vGot[i] != vi {
				t.Errorf("n=%d: v[%d] = %v, want %v", n, i, vGot[i], vi)
			}
			if d := ulps(theta[i], want); d > 4 {
				t.Errorf("n=%d: step[%d] = %v, want %v (%v ulps)", n, i, theta[i], want, d)
			}
		}
	}
}

// TestRMSPropFoldMatchesTwoCalls checks RMSPropFold against RMSProp followed
// by ScaleAdd, bitwise, for lengths 1 to 40 (the eight-lane loop, its
// leftover quad and the tails), over a few steps; and that the comparison
// sees a fold coefficient one ulp off.
func TestRMSPropFoldMatchesTwoCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	run := func(n int, cFold float64) (mism int) {
		theta1, u1, v1 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range theta1 {
			theta1[i] = rng.NormFloat64()
			u1[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v1[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta2, u2, v2 := append([]float64(nil), theta1...), append([]float64(nil), u1...), append([]float64(nil), v1...)
		for step := range 3 {
			tr := make([]float64, n)
			for i := range tr {
				tr[i] = rng.NormFloat64()
			}
			s, d, c := 0.3-0.4*float64(step), 0.891, -0.37
			RMSProp(theta1, u1, v1, s, 1e-3, 0.9999, 1e-8)
			ScaleAdd(u1, d, c, tr)
			if cFold == 0 {
				cFold = c
			}
			RMSPropFold(theta2, u2, v2, tr, s, 1e-3, 0.9999, 1e-8, d, cFold)
		}
		for i := range theta1 {
			if math.Float64bits(theta1[i]) != math.Float64bits(theta2[i]) || math.Float64bits(u1[i]) != math.Float64bits(u2[i]) ||
				math.Float64bits(v1[i]) != math.Float64bits(v2[i]) {
				mism++
			}
		}
		return mism
	}
	for n := 1; n <= 40; n++ {
		if d := run(n, 0); d != 0 {
			t.Errorf("n=%d: %d entries differ", n, d)
		}
	}
	if run(16, math.Nextafter(-0.37, 0)) == 0 {
		t.Error("a fold coefficient one ulp off went unnoticed")
	}
}
