package reference

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fdStep is the central-difference step: truncation error ~h², rounding ~1e-16/h,
// both far below the 1e-6 tolerance.
const fdStep = 1e-5

// fdTol is the relative tolerance of a gradient against finite differences.
const fdTol = 1e-6

func uniform(rng *rand.Rand, n int, scale float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = scale * (2*rng.Float64() - 1)
	}
	return v
}

func inputs(rng *rand.Rand, steps, m int) [][]float64 {
	xs := make([][]float64, steps)
	for t := range xs {
		xs[t] = uniform(rng, m, 1)
	}
	return xs
}

// centralDiff returns the central-difference gradient of f at p (p is restored).
func centralDiff(p []float64, f func() float64) []float64 {
	grad := make([]float64, len(p))
	for i := range p {
		orig := p[i]
		p[i] = orig + fdStep
		up := f()
		p[i] = orig - fdStep
		down := f()
		p[i] = orig
		grad[i] = (up - down) / (2 * fdStep)
	}
	return grad
}

func weighted(a, ys []float64) float64 {
	s := 0.0
	for t, y := range ys {
		s += a[t] * y
	}
	return s
}

// assertRelClose checks |got−want| ≤ tol·max(1, |want|) elementwise.
func assertRelClose(t *testing.T, want, got []float64, tol float64, what string) {
	t.Helper()
	if !assert.Len(t, got, len(want), what) {
		return
	}
	bad := 0
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*math.Max(1, math.Abs(want[i])) {
			if bad < 5 {
				t.Errorf("%s[%d]: got %.12g, want %.12g", what, i, got[i], want[i])
			}
			bad++
		}
	}
	assert.Zero(t, bad, "%s: %d of %d entries differ", what, bad, len(want))
}

// assertNotTrivial guards against vacuous agreement (e.g. all-zero gradients).
func assertNotTrivial(t *testing.T, grad []float64) {
	t.Helper()
	nonzero := 0
	for _, g := range grad {
		if math.Abs(g) > 1e-8 {
			nonzero++
		}
	}
	// A third: with a zero entering state and T = 1, W_hh and the forget gate get no gradient.
	assert.Greater(t, nonzero, len(grad)/3, "many gradient entries should be nonzero")
}
