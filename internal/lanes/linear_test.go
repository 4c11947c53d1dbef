package lanes

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// TestElementwiseKernelsBitwise checks the element-wise kernels against the
// formulas written out here, bitwise, for lengths 0..13 (both paths must
// give these exact bits).
func TestElementwiseKernelsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 13; n++ {
		x := randVec(rng, n)
		h0, c0 := randVec(rng, n), randVec(rng, n)
		f, A, B, E, k := rng.Float64(), rng.NormFloat64(), rng.Float64(), rng.NormFloat64(), rng.NormFloat64()

		hs, cs := append([]float64(nil), h0...), append([]float64(nil), c0...)
		Trace(hs, cs, x, f, A, B, E, k)
		for i := range x {
			cw := f*c0[i] + A*h0[i] + k*x[i]
			if hw := B*cw + E*h0[i]; cs[i] != cw || hs[i] != hw {
				t.Errorf("Trace n=%d [%d]: (%v, %v), want (%v, %v)", n, i, hs[i], cs[i], hw, cw)
			}
		}
		hs, cs = append([]float64(nil), h0...), append([]float64(nil), c0...)
		TraceOut(hs, cs, x, f, A, B, E, k)
		for i := range x {
			cw := f*c0[i] + A*h0[i]
			if hw := B*cw + E*h0[i] + k*x[i]; cs[i] != cw || hs[i] != hw {
				t.Errorf("TraceOut n=%d [%d]: (%v, %v), want (%v, %v)", n, i, hs[i], cs[i], hw, cw)
			}
		}
		z := append([]float64(nil), h0...)
		ScaleAdd(z, f, A, x)
		for i := range x {
			if w := f*h0[i] + A*x[i]; z[i] != w {
				t.Errorf("ScaleAdd n=%d [%d] = %v, want %v", n, i, z[i], w)
			}
		}
		z = append([]float64(nil), h0...)
		AddScaled(z, A, x)
		for i := range x {
			if w := h0[i] + A*x[i]; z[i] != w {
				t.Errorf("AddScaled n=%d [%d] = %v, want %v", n, i, z[i], w)
			}
		}
	}
}

// TestDot4 checks the four row sums against a compensated sum: within a few
// ulps of Σ|w·x| (the bound for any summation order), and that the rows are
// not mixed up.
func TestDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for m := 1; m <= 41; m++ {
		x, w := randVec(rng, m), randVec(rng, 4*m)
		init := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		a := init
		Dot4(&a, w, x)
		for q := range 4 {
			want, mag := init[q], math.Abs(init[q])
			for k := range m {
				want += w[q*m+k] * x[k]
				mag += math.Abs(w[q*m+k] * x[k])
			}
			if d := math.Abs(a[q] - want); d > float64(m+1)*2.3e-16*mag {
				t.Errorf("m=%d row %d: %v, want %v (|Δ| %v, bound %v)", m, q, a[q], want, d, float64(m+1)*2.3e-16*mag)
			}
		}
	}
}
