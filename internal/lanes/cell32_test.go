package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cell32Within returns an error if Cell32's results (i, f, g, o, c, tc, h
// of u columns, from float32 pre-activations a and cell states cp) are not
// within float32 rounding bounds of Cell's, and the largest ratio of a
// difference to its bound. The lane path evaluates σ and tanh in float32
// (each within 4·2⁻²⁴ of its exact value, relative, from the exact
// float32 input), c = f·cp + i·g in float64 from those, tanh c from c
// rounded to float32, and h = o·tanh c in float64; so with u = 2⁻²⁴ and
// S = |f·cp| + |i·g|:
//
//	gates: 4u·|v|    c: 9u·S    tanh c: 4u·|tc| + 11u·S    h: 9u·|h| + 11u·S
//
// each plus 2⁻¹²⁶·(1 + |cp|), for a σ below float32's normal range (its
// exponential clamped at e⁸⁸: σ(a) ≈ 6·10⁻³⁹ for every a < −88).
func cell32Within(got, want [7][]float64, cp []float64) (float64, error) {
	const u32, tiny = 0x1p-24, 0x1p-126
	worst := 0.0
	for j := range cp {
		w := func(q int) float64 { return want[q][j] }
		S := math.Abs(w(1)*cp[j]) + math.Abs(w(0)*w(2))
		bounds := [7]float64{4 * u32 * math.Abs(w(0)), 4 * u32 * math.Abs(w(1)), 4 * u32 * math.Abs(w(2)), 4 * u32 * math.Abs(w(3)),
			9 * u32 * S, 4*u32*math.Abs(w(5)) + 11*u32*S, 9*u32*math.Abs(w(6)) + 11*u32*S}
		for q, b := range bounds {
			b += tiny * (1 + math.Abs(cp[j]))
			d := math.Abs(got[q][j] - w(q))
			if d == 0 {
				continue
			}
			if !(d <= b) {
				return worst, fmt.Errorf("value %d of column %d: %v, Cell's %v (difference %.3g, bound %.3g)", q, j, got[q][j], w(q), d, b)
			}
			worst = max(worst, d/b)
		}
	}
	return worst, nil
}

// Cell32 follows Cell within float32 roundings (cell32Within) at every
// stage width (one octet, a partial one, several) and pre-activations from
// 0 to ±100, on both paths (the scalar path is Cell itself). The check has
// teeth: a Cell32 that read the previous cell state of the wrong column,
// or a forget gate's pre-activation 0.5 off by 2⁻¹⁶ relative, is outside it.
func TestCell32FollowsCell(t *testing.T) {
	for _, path := range []string{"build", "scalar"} {
		run := func(f func()) { f() }
		if path == "scalar" {
			run = forceScalar
		}
		run(func() {
			worst := 0.0
			for u := 1; u <= 17; u++ {
				for _, scale := range []float64{0.1, 4, 40} {
					rng := rand.New(rand.NewPCG(uint64(u), uint64(scale)))
					var a [4][]float64
					for q := range a {
						a[q] = make([]float64, u)
						for j := range a[q] {
							a[q][j] = float64(float32(scale * rng.NormFloat64()))
						}
					}
					a[0][0], a[2][u-1] = 0, -100 // σ(0), tanh at the clamp
					if u > 1 {
						a[1][1] = 0.5 // the teeth's gate, off the saturation
					}
					cp := make([]float64, u)
					for j := range cp {
						cp[j] = 3 * rng.NormFloat64()
					}
					cell := func(a [4][]float64, cp []float64, cell func(ai, af, ag, ao, cp, c, tc, h []float64)) (r [7][]float64) {
						for q := range 4 {
							r[q] = append([]float64(nil), a[q]...)
						}
						for q := 4; q < 7; q++ {
							r[q] = make([]float64, u)
						}
						cell(r[0], r[1], r[2], r[3], cp, r[4], r[5], r[6])
						return r
					}
					want := cell(a, cp, Cell)
					w, err := cell32Within(cell(a, cp, Cell32), want, cp)
					if err != nil {
						t.Fatalf("%s path, u %d, scale %v: %v", path, u, scale, err)
					}
					worst = max(worst, w)
					if u < 2 || scale != 4 {
						continue
					}
					rotated := append(append([]float64(nil), cp[1:]...), cp[0])
					if _, err := cell32Within(cell(a, rotated, Cell32), want, cp); err == nil {
						t.Errorf("%s path, u %d: Cell32 on the wrong columns' cell states within the bound", path, u)
					}
					var off [4][]float64
					for q := range a {
						off[q] = append([]float64(nil), a[q]...)
					}
					off[1][1] = float64(float32(off[1][1] * (1 + 0x1p-16)))
					if _, err := cell32Within(cell(off, cp, Cell32), want, cp); err == nil {
						t.Errorf("%s path, u %d: Cell32 on a perturbed forget gate within the bound", path, u)
					}
				}
			}
			t.Logf("%s path: at most %.3g of the bound", path, worst)
		})
	}
}
