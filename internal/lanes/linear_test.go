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

// TestNormalizeBitwise checks Normalize against its formula written out,
// bitwise, with variances on both sides of ε² (the floor) and a NaN.
func TestNormalizeBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	beta, eps := 0.99, 0.01
	oneMinus := 1 - beta
	for n := 0; n <= 13; n++ {
		h, mean := randVec(rng, n), randVec(rng, n)
		v := make([]float64, n)
		for k := range v {
			v[k] = math.Ldexp(rng.Float64(), -rng.IntN(30))
		}
		if n > 5 {
			h[5] = math.NaN()
		}
		out, scale := make([]float64, n), make([]float64, n)
		m2, v2 := append([]float64(nil), mean...), append([]float64(nil), v...)
		Normalize(out, h, m2, v2, scale, beta, oneMinus, eps)
		for k := range h {
			mu := beta*mean[k] + oneMinus*h[k]
			vk := beta*v[k] + oneMinus*(mu-h[k])*(mean[k]-h[k])
			sd := math.Sqrt(vk)
			if sd < eps {
				sd = eps
			}
			s := 1 / sd
			want := (h[k] - mu) * s
			same := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
			if !same(m2[k], mu) || !same(v2[k], vk) || !same(scale[k], s) || !same(out[k], want) {
				t.Errorf("n=%d [%d]: (μ %v σ² %v scale %v out %v), want (%v %v %v %v)", n, k, m2[k], v2[k], scale[k], out[k], mu, vk, s, want)
			}
		}
	}
}

// TestOuterAndAddMulTBitwise checks Outer and AddMulT against their loops
// written out, bitwise, for shapes with and without tails.
func TestOuterAndAddMulTBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, shape := range [][2]int{{1, 1}, {3, 4}, {16, 4}, {16, 12}, {28, 7}, {5, 13}} {
		rows, m := shape[0], shape[1]
		d, x, g0 := randVec(rng, rows), randVec(rng, m), randVec(rng, rows*m)
		g := append([]float64(nil), g0...)
		Outer(g, d, x)
		z0 := randVec(rng, m)
		z := append([]float64(nil), z0...)
		AddMulT(z, g0, d)
		want := append([]float64(nil), z0...)
		for r := range rows {
			for j := range m {
				if w := g0[r*m+j] + d[r]*x[j]; g[r*m+j] != w {
					t.Errorf("Outer %v [%d,%d] = %v, want %v", shape, r, j, g[r*m+j], w)
				}
				want[j] += d[r] * g0[r*m+j]
			}
		}
		for j := range m {
			if z[j] != want[j] {
				t.Errorf("AddMulT %v [%d] = %v, want %v", shape, j, z[j], want[j])
			}
		}
	}
}
