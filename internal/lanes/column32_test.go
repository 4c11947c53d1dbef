package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// f32s returns n normal values rounded to float32, and the same values in
// float64.
func f32s(rng *rand.Rand, n int, scale float64) ([]float32, []float64) {
	a, b := make([]float32, n), make([]float64, n)
	for i := range a {
		a[i] = float32(scale * rng.NormFloat64())
		b[i] = float64(a[i])
	}
	return a, b
}

// The float32 kernels compute the float64 kernels' formulas: on the same
// (float32-representable) inputs their results are within a few float32
// roundings of the float64 kernels', relative to the magnitudes of the
// terms. A kernel with a term dropped or a coefficient swapped is far
// outside (the teeth, below).
func TestFloat32KernelsFollowFloat64(t *testing.T) {
	const eps = 0x1p-23
	for _, m := range []int{1, 5, 8, 13, 275} {
		for _, u := range []int{1, 3, 6} {
			rng := rand.New(rand.NewPCG(uint64(m), uint64(u)))
			size := arch.ColumnParams(m)
			// Pre-activations.
			b32, b64 := f32s(rng, u*size, 0.5)
			x32, x64 := f32s(rng, Padded32(m), 1)
			h := make([]float64, u)
			for j := range h {
				h[j] = float64(float32(rng.NormFloat64()))
			}
			var g32, g64 [4][]float64
			for q := range 4 {
				g32[q], g64[q] = make([]float64, u), make([]float64, u)
			}
			Preact32(g32[0], g32[1], g32[2], g32[3], h, b32, x32, m)
			Preact(g64[0], g64[1], g64[2], g64[3], h, b64, x64[:m])
			for j := range u {
				mag := 0.0 // Σ|terms| of gate q of column j
				for q := range 4 {
					mag = math.Abs(b64[j*size+4*m+4+q]) + math.Abs(b64[j*size+4*m+q]*h[j])
					for k := range m {
						mag += math.Abs(b64[j*size+q*m+k] * x64[k])
					}
					if d := math.Abs(g32[q][j] - g64[q][j]); d > float64(m+2)*eps*mag {
						t.Errorf("Preact32 m %d u %d column %d gate %d: %v vs %v (Σ|terms| %v)", m, u, j, q, g32[q][j], g64[q][j], mag)
					}
				}
			}
			// Traces and their fold.
			ht32, ht64 := f32s(rng, u*size, 1)
			ct32, ct64 := f32s(rng, u*size, 1)
			z32, z64 := f32s(rng, u*size, 1)
			f, c := make([]float64, u), make([]float64, u)
			for j := range u {
				f[j] = float64(float32(rng.Float64()))
				c[j] = float64(float32(rng.NormFloat64()))
			}
			k := NewTraceCoef(u)
			for j := range u {
				k.A[j], k.B[j], k.E[j] = float64(float32(rng.NormFloat64())), float64(float32(rng.Float64())), float64(float32(rng.NormFloat64()))
				for _, i := range []int{0, 1, 2, 7} {
					k.K[8*j+i] = float64(float32(rng.NormFloat64()))
				}
			}
			d := float64(float32(0.81))
			StageTraceFold32(ht32, ct32, x32[:m], f, h, k, z32, d, c, true)
			StageTraceFold(ht64, ct64, x64[:m], f, h, k, z64, d, c, true)
			for _, v := range []struct {
				name   string
				a      []float32
				b      []float64
				budget float64 // roundings of terms of magnitude ≤ ~10
			}{{"ct", ct32, ct64, 4 * 10}, {"ht", ht32, ht64, 8 * 30}, {"z", z32, z64, 12 * 60}} {
				for i := range v.a {
					if dd := math.Abs(float64(v.a[i]) - v.b[i]); dd > v.budget*eps {
						t.Fatalf("StageTraceFold32 m %d u %d %s[%d]: %v vs %v", m, u, v.name, i, v.a[i], v.b[i])
					}
				}
			}
			// RMSProp.
			th32, th64 := f32s(rng, u*size, 1)
			dir32, dir64 := f32s(rng, u*size, 1)
			v32, v64 := make([]float32, u*size), make([]float64, u*size)
			for i := range v32 {
				v32[i], v64[i] = 1, 1
			}
			RMSProp32(th32, dir32, v32, 0.3, 1e-3, 0.9999, 1e-8)
			RMSProp(th64, dir64, v64, 0.3, 1e-3, 0.9999, 1e-8)
			for i := range th32 {
				if dd := math.Abs(float64(th32[i]) - th64[i]); dd > 2*eps*math.Abs(th64[i])+1e-3*8*eps {
					t.Fatalf("RMSProp32 m %d u %d θ[%d]: %v vs %v", m, u, i, th32[i], th64[i])
				}
				if dd := math.Abs(float64(v32[i]) - v64[i]); dd > 2*eps*v64[i] {
					t.Fatalf("RMSProp32 m %d u %d v[%d]: %v vs %v", m, u, i, v32[i], v64[i])
				}
			}
		}
	}
}

// The comparison above has teeth: a float32 trace kernel fed a dropped
// recurrent coefficient (A = 0), or the wrong column's forget gate, lands
// far outside its budget.
func TestFloat32KernelsTeeth(t *testing.T) {
	const eps = 0x1p-23
	m, u := 13, 3
	size := arch.ColumnParams(m)
	for _, defect := range []string{"A dropped", "f of column 0"} {
		rng := rand.New(rand.NewPCG(5, 6))
		x32, x64 := f32s(rng, m, 1)
		ht32, ht64 := f32s(rng, u*size, 1)
		ct32, ct64 := f32s(rng, u*size, 1)
		z32, z64 := f32s(rng, u*size, 1)
		f, c, h := make([]float64, u), make([]float64, u), make([]float64, u)
		for j := range u {
			f[j], c[j], h[j] = float64(float32(rng.Float64())), float64(float32(rng.NormFloat64())), float64(float32(rng.NormFloat64()))
		}
		k := NewTraceCoef(u)
		for j := range u {
			k.A[j], k.B[j], k.E[j] = float64(float32(rng.NormFloat64())), float64(float32(rng.Float64())), float64(float32(rng.NormFloat64()))
			k.K[8*j], k.K[8*j+7] = float64(float32(rng.NormFloat64())), float64(float32(rng.NormFloat64()))
		}
		StageTraceFold(ht64, ct64, x64, f, h, k, z64, 0.81, c, true)
		k32, f32 := NewTraceCoef(u), append([]float64(nil), f...)
		copy(k32.A, k.A)
		copy(k32.B, k.B)
		copy(k32.E, k.E)
		copy(k32.K, k.K)
		if defect == "A dropped" {
			clear(k32.A)
		} else {
			for j := range f32 {
				f32[j] = f[0]
			}
		}
		StageTraceFold32(ht32, ct32, x32, f32, h, k32, z32, 0.81, c, true)
		worst := 0.0
		for i := range ct32 {
			worst = max(worst, math.Abs(float64(ct32[i])-ct64[i]))
		}
		if worst <= 4*10*eps {
			t.Errorf("%s: c's worst gap %.3g is within the budget %.3g", defect, worst, 4*10*eps)
		}
	}
}

// tinyMix returns n float32 values of random sign and magnitudes 2⁻¹¹⁰ to
// 2⁻⁹⁰: around TinyTrace32, so that a step's results fall on both sides.
func tinyMix(rng *rand.Rand, n int) []float32 {
	a := make([]float32, n)
	for i := range a {
		a[i] = float32(math.Ldexp(1+rng.Float64(), -110+rng.IntN(20)))
		if rng.IntN(2) == 0 {
			a[i] = -a[i]
		}
	}
	return a
}

// The float32 engine's trace kernels store no entry of magnitude below
// TinyTrace32 but 0: every kernel that stores traces or the eligibility
// trace (both paths of StageTraceFold32, flat and by rows, folding and
// setting, StageTrace32, the scale kernels and RMSPropFold32's fold), from
// inputs around the threshold with x = 0 (so that they decay). Each case
// must also store some entries above it and some zeros: a kernel that does
// not flush leaves entries between 0 and the threshold and fails.
func TestFloat32TracesFlushTiny(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	check := func(name string, vs ...[]float32) {
		t.Helper()
		zeros, above := 0, 0
		for _, v := range vs {
			for i, x := range v {
				switch a := math.Abs(float64(x)); {
				case a == 0:
					zeros++
				case a < TinyTrace32:
					t.Errorf("%s: entry %d = %g, below TinyTrace32 and not 0", name, i, x)
					return
				default:
					above++
				}
			}
		}
		if zeros == 0 || above == 0 {
			t.Errorf("%s: %d zeros and %d entries above TinyTrace32: the case does not straddle the threshold", name, zeros, above)
		}
	}
	for _, m := range []int{1, 5, 13, 40} {
		const u = 3
		size := arch.ColumnParams(m)
		f, c, h := make([]float64, u), make([]float64, u), make([]float64, u)
		k := NewTraceCoef(u)
		for j := range u {
			f[j], c[j] = float64(float32(0.5+0.4*rng.Float64())), float64(float32(0.5+rng.Float64()))
			k.A[j], k.B[j], k.E[j] = float64(float32(0.3*rng.Float64())), float64(float32(0.2+0.5*rng.Float64())), float64(float32(0.3*rng.Float64()))
		}
		x := make([]float32, Padded32(m))[:m]
		for _, add := range []bool{true, false} {
			ht, ct, z := tinyMix(rng, u*size), tinyMix(rng, u*size), tinyMix(rng, u*size)
			StageTraceFold32(ht, ct, x, f, h, k, z, 0.9, c, add)
			check(fmt.Sprintf("StageTraceFold32 m=%d add=%v", m, add), ht, ct, z)
		}
		ht, ct := tinyMix(rng, u*size), tinyMix(rng, u*size)
		StageTrace32(ht, ct, x, f, h, k)
		check(fmt.Sprintf("StageTrace32 m=%d", m), ht, ct)
	}
	n := 37
	coef := []float64{0.7, 0.9}
	z, tr := tinyMix(rng, 2*n), tinyMix(rng, 2*n)
	ScaleBlocks32(z, coef, tr)
	check("ScaleBlocks32", z)
	z = tinyMix(rng, 2*n)
	ScaleAddBlocks32(z, 0.9, coef, tr)
	check("ScaleAddBlocks32", z)
	z, t64 := tinyMix(rng, n), make([]float64, n)
	for i, v := range tinyMix(rng, n) {
		t64[i] = float64(v)
	}
	ScaleAdd32(z, 0.9, 0.8, t64)
	check("ScaleAdd32", z)
	z = tinyMix(rng, n)
	ScaleAddSame32(z, 0.9, 0.8, tr)
	check("ScaleAddSame32", z)
	for _, l := range []int{5, 8, 37} {
		theta, v := make([]float32, l), make([]float32, l)
		for i := range v {
			v[i] = 1
		}
		z = tinyMix(rng, l)
		RMSPropFold32(theta, z, v, tinyMix(rng, l), 0.5, 1e-3, 0.9999, 1e-8, 0.3, 0.2)
		check(fmt.Sprintf("RMSPropFold32 n=%d", l), z)
	}
}
