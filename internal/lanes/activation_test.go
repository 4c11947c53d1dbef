package lanes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// activationInputs returns points over the whole float64 range that matters
// for exp, tanh and the logistic: a dense uniform grid on [−750, 750], random
// points of every magnitude 2^−60 .. 2^10 of both signs, the thresholds of
// the implementations (±0.625, ±44, the overflow and underflow limits and
// their neighbours), the subnormal range, and ±0, ±Inf, NaN, extreme
// finite values.
func activationInputs() []float64 {
	var xs []float64
	for x := -750.0; x <= 750; x += 0.0137 {
		xs = append(xs, x)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		x := math.Ldexp(1+rng.Float64(), rng.IntN(71)-60)
		if rng.IntN(2) == 0 {
			x = -x
		}
		xs = append(xs, x)
	}
	for _, x := range []float64{0.625, 44, 22, 709.782712893384, 709.79, 710, -708.39, -745.13321910194110842, -745.2, -746, -1e300, 1e300, math.MaxFloat64, 5e-324, 1e-310, 1e-20} {
		for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
			xs = append(xs, y, -y)
		}
	}
	return append(xs, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN())
}

func sigmoidRef(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// worstULP returns the largest ulp distance between f over xs (in one call,
// so that the lane path sees full vectors and tails) and ref, and where.
func worstULP(f func(dst, src []float64), ref func(float64) float64, xs []float64) (worst, at float64) {
	got := make([]float64, len(xs))
	f(got, xs)
	for i, x := range xs {
		if d := ulps(got[i], ref(x)); d > worst || math.IsNaN(d) {
			worst, at = d, x
		}
		// ±0 must keep its sign where the reference does.
		if want := ref(x); want == 0 && math.Signbit(want) != math.Signbit(got[i]) {
			return math.Inf(1), x
		}
	}
	return worst, at
}

// maxULP bounds each activation against Go's math over activationInputs. The
// lane exponential is measured at about 1 ulp; the logistic and tanh add a
// division or two.
var activationCases = []struct {
	name   string
	f      func(dst, src []float64)
	ref    func(float64) float64
	maxULP float64
}{
	{"exp", Exp, math.Exp, 2},
	{"sigmoid", Sigmoid, sigmoidRef, 3},
	{"tanh", Tanh, math.Tanh, 3},
}

func TestActivationsMatchMath(t *testing.T) {
	xs := activationInputs()
	for _, c := range activationCases {
		// Every length 1..9 too, for the tails of the lane loops.
		w, at := worstULP(c.f, c.ref, xs)
		for n := 1; n <= 9; n++ {
			if w2, at2 := worstULP(c.f, c.ref, xs[len(xs)-n:]); w2 > w {
				w, at = w2, at2
			}
		}
		t.Logf("%s (%s path): worst %.3g ulps at %v", c.name, Path(), w, at)
		if w > c.maxULP {
			t.Errorf("%s: %v ulps from math at x = %v, want ≤ %v", c.name, w, at, c.maxULP)
		}
	}
}

// TestActivationCheckHasTeeth shows that the bound detects an error of a few
// ulps, a wrong sign of zero, a lost NaN and a wrong overflow.
func TestActivationCheckHasTeeth(t *testing.T) {
	xs := activationInputs()
	defects := map[string]func(float64) float64{
		"4 ulps high": func(x float64) float64 {
			y := math.Exp(x)
			if y > 1 && y < 2 {
				for range 4 {
					y = math.Nextafter(y, math.Inf(1))
				}
			}
			return y
		},
		"NaN lost": func(x float64) float64 {
			if math.IsNaN(x) {
				return 0
			}
			return math.Exp(x)
		},
		"Inf as max":   func(x float64) float64 { return math.Min(math.Exp(x), math.MaxFloat64) },
		"zero sign":    func(x float64) float64 { return math.Abs(math.Tanh(x)) * math.Copysign(1, x+1e-300) },
		"cut at 2^-30": func(x float64) float64 { return math.Tanh(math.Round(x*(1<<30)) / (1 << 30)) },
	}
	for name, bad := range defects {
		f := func(dst, src []float64) {
			for i, x := range src {
				dst[i] = bad(x)
			}
		}
		ref := math.Exp
		if name == "zero sign" || name == "cut at 2^-30" {
			ref = math.Tanh
		}
		if w, _ := worstULP(f, ref, xs); w <= 3 {
			t.Errorf("defect %q passes with %v ulps", name, w)
		}
	}
}
