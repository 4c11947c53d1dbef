//go:build goexperiment.simd && amd64

package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestRMSPropWideMatchesQuads checks the eight-lane RMSProp loop against the
// four-lane one, bitwise, for every multiple of 4 up to 40 entries (both
// loop shapes and the leftover quad), over a few steps so that v carries
// over; and that the comparison sees a change of one ulp in a step size.
func TestRMSPropWideMatchesQuads(t *testing.T) {
	if !avx512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	tau := AccumulatorFloor(1e-8)
	run := func(n int, alpha8 float64) (mism int) {
		u := make([]float64, n)
		theta4, v4 := make([]float64, n), make([]float64, n)
		for i := range u {
			theta4[i] = rng.NormFloat64()
			v4[i] = tinyOrNot(rng)
		}
		theta8, v8 := append([]float64(nil), theta4...), append([]float64(nil), v4...)
		for step := range 3 {
			for i := range u {
				u[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			}
			s := 0.3 - 0.4*float64(step)
			rmspropAt(base(theta4), base(u), base(v4), n, s, 1e-3, 0.9999, 1e-8, tau)
			rmsprop8At(base(theta8), base(u), base(v8), n, s, alpha8, 0.9999, 1e-8, tau)
		}
		for i := range u {
			if math.Float64bits(theta4[i]) != math.Float64bits(theta8[i]) || math.Float64bits(v4[i]) != math.Float64bits(v8[i]) {
				mism++
			}
		}
		return mism
	}
	for n := 4; n <= 40; n += 4 {
		if d := run(n, 1e-3); d != 0 {
			t.Errorf("n=%d: %d entries differ", n, d)
		}
	}
	if run(16, math.Nextafter(1e-3, 1)) == 0 {
		t.Error("a step size one ulp larger went unnoticed")
	}
	clearUpper()
}

// tinyOrNot draws an accumulator entry: one in three near or below
// AccumulatorFloor(1e-8) (2⁻¹⁰⁰⁰, subnormals included), the others in
// [2⁻³⁰, 2¹⁰).
func tinyOrNot(rng *rand.Rand) float64 {
	if rng.IntN(3) == 0 {
		return math.Ldexp(1+rng.Float64(), -990-rng.IntN(80))
	}
	return math.Ldexp(rng.Float64(), rng.IntN(40)-30)
}

// TestRMSPropFoldWideMatchesQuads checks the eight-lane one-pass fold
// (rmsprop8FoldAt) against the four-lane one (rmspropFoldAt), bitwise, for
// every multiple of 4 up to 40 entries, over a few steps; and that the
// comparison sees a fold coefficient one ulp off. Whichever of the two
// RMSPropFold takes on this CPU, the other is checked here.
func TestRMSPropFoldWideMatchesQuads(t *testing.T) {
	if !avx512 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	tau := AccumulatorFloor(1e-8)
	run := func(n int, c8 float64) (mism int) {
		theta4, u4, v4 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range theta4 {
			theta4[i] = rng.NormFloat64()
			u4[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v4[i] = tinyOrNot(rng)
		}
		theta8, u8, v8 := append([]float64(nil), theta4...), append([]float64(nil), u4...), append([]float64(nil), v4...)
		tr := make([]float64, n)
		for step := range 3 {
			for i := range tr {
				tr[i] = rng.NormFloat64()
			}
			s := 0.3 - 0.4*float64(step)
			rmspropFoldAt(base(theta4), base(u4), base(v4), base(tr), n, s, 1e-3, 0.9999, 1e-8, 0.891, -0.37, tau)
			rmsprop8FoldAt(base(theta8), base(u8), base(v8), base(tr), n, s, 1e-3, 0.9999, 1e-8, 0.891, c8, tau)
		}
		for i := range theta4 {
			if math.Float64bits(theta4[i]) != math.Float64bits(theta8[i]) || math.Float64bits(u4[i]) != math.Float64bits(u8[i]) ||
				math.Float64bits(v4[i]) != math.Float64bits(v8[i]) {
				mism++
			}
		}
		return mism
	}
	for n := 4; n <= 40; n += 4 {
		if d := run(n, -0.37); d != 0 {
			t.Errorf("n=%d: %d entries differ", n, d)
		}
	}
	if run(16, math.Nextafter(-0.37, 0)) == 0 {
		t.Error("a fold coefficient one ulp off went unnoticed")
	}
	clearUpper()
}

// BenchmarkRMSPropLoops times RMSProp's loops at the learnable sizes of the
// Atari configurations (Columnar 6: 6,648 entries; T-BPTT 5:7: 7,932),
// four lanes against eight, the update alone and with the trace fold, and
// the square roots alone (sqrt: VSQRTPD over v, the loops' floor): on CPUs
// whose 512-bit square roots are not full width, four lanes win
// (wideRMSProp). Run with -test.cpu 1 and compare CPU times.
func BenchmarkRMSPropLoops(b *testing.B) {
	if !avx512 {
		b.Skip("no AVX-512 on this CPU")
	}
	tau := AccumulatorFloor(1e-8)
	for _, n := range []int{6648, 7932} {
		rng := rand.New(rand.NewPCG(9, 10))
		theta, u, v, tr := randVec(rng, n), randVec(rng, n), make([]float64, n), randVec(rng, n)
		for i := range v {
			v[i] = 1
		}
		pt, pu, pv, ptr := base(theta), base(u), base(v), base(tr)
		for _, k := range []struct {
			name string
			f    func()
		}{
			{"rmsprop4", func() { rmspropAt(pt, pu, pv, n, 0.5, 1e-4, 0.9999, 1e-8, tau) }},
			{"rmsprop8", func() { rmsprop8At(pt, pu, pv, n, 0.5, 1e-4, 0.9999, 1e-8, tau) }},
			{"fold4", func() { rmspropFoldAt(pt, pu, pv, ptr, n, 0.5, 1e-4, 0.9999, 1e-8, 0.5, 1, tau) }},
			{"fold8", func() { rmsprop8FoldAt(pt, pu, pv, ptr, n, 0.5, 1e-4, 0.9999, 1e-8, 0.5, 1, tau) }},
			{"sqrt", func() { sqrtAt(pu, pv, n) }},
		} {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				for b.Loop() {
					k.f()
				}
				clearUpper()
			})
		}
	}
}

// sqrtAt writes √v into u for the first n entries (a multiple of 4), four
// lanes per instruction: the square roots of an RMSProp step and nothing
// else.
//
//go:noinline
func sqrtAt(pu, pv unsafe.Pointer, n int) {
	for k := 0; k < n; k += 4 {
		stAt(ldAt(pv, k).Sqrt(), pu, k)
	}
}

// TestRMSPropLanesSkipIdlePairs checks every RMSProp lane loop bitwise
// against the arithmetic of a pair of quads written out entry by entry
// (pairStep), which takes no shortcut, on idleCase's groups of eight over
// a few steps of either sign and a step of NaN, at step sizes of either
// sign and 0, with and without the trace fold; and that the data and the comparison have teeth: each
// wrongShortcut, taken by the reference, makes it differ.
func TestRMSPropLanesSkipIdlePairs(t *testing.T) {
	const b, eps, d, c = 0.9999, 1e-8, 0.891, -0.37
	tau := AccumulatorFloor(eps)
	type loop struct {
		name string
		fold bool
		f    func(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha float64)
	}
	loops := []loop{
		{"rmspropAt", false, func(pt, pu, pv, _ unsafe.Pointer, n int, s, alpha float64) {
			rmspropAt(pt, pu, pv, n, s, alpha, b, eps, tau)
		}},
		{"rmspropFoldAt", true, func(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha float64) {
			rmspropFoldAt(pt, pu, pv, ptr, n, s, alpha, b, eps, d, c, tau)
		}},
	}
	if avx512 {
		loops = append(loops, loop{"rmsprop8At", false, func(pt, pu, pv, _ unsafe.Pointer, n int, s, alpha float64) {
			rmsprop8At(pt, pu, pv, n, s, alpha, b, eps, tau)
		}}, loop{"rmsprop8FoldAt", true, func(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha float64) {
			rmsprop8FoldAt(pt, pu, pv, ptr, n, s, alpha, b, eps, d, c, tau)
		}})
	}
	// run returns the first entry of θ, v or u that differs after a step, or "".
	run := func(l loop, n int, alpha float64, wrong wrongShortcut, steps []float64) string {
		rng := rand.New(rand.NewPCG(uint64(n), 22))
		theta, u, v, tr := idleCase(rng, n, 8)
		thetaRef, uRef, vRef := append([]float64(nil), theta...), append([]float64(nil), u...), append([]float64(nil), v...)
		for k, s := range steps {
			l.f(base(theta), base(u), base(v), base(tr), n, s, alpha)
			clearUpper()
			pairStep(thetaRef, uRef, vRef, s, alpha, b, eps, tau, wrong)
			if l.fold {
				for i := range uRef {
					uRef[i] = float64(d*uRef[i]) + float64(c*tr[i])
				}
			}
			if i := firstMismatch(u, uRef); i >= 0 {
				return fmt.Sprintf("step %d: u[%d] = %v, want %v", k, i, u[i], uRef[i])
			}
			if m := mismatchText(theta, thetaRef, v, vRef); m != "" {
				return fmt.Sprintf("step %d: %s", k, m) // a zero's sign can heal at a later step
			}
		}
		return ""
	}
	for _, l := range loops {
		for n := 4; n <= 44; n += 4 {
			for _, alpha := range []float64{1e-3, -1e-3, 0} {
				if m := run(l, n, alpha, noShortcut, []float64{0.3, -0.7, 1.1}); m != "" {
					t.Errorf("%s, n=%d, α=%v: %s", l.name, n, alpha, m)
				}
			}
			if m := run(l, n, 1e-3, noShortcut, []float64{0.3, math.NaN()}); m != "" {
				t.Errorf("%s, n=%d, a step of NaN: %s", l.name, n, m)
			}
		}
		for _, wrong := range []wrongShortcut{keepingTheta, ignoringV, halfGroup} {
			if run(l, 80, 1e-3, wrong, []float64{0.3, -0.7, 1.1}) == "" {
				t.Errorf("%s: the shortcut %v went unnoticed", l.name, wrong)
			}
		}
	}
}

// pairStep is the lane loops' arithmetic without their shortcut (or with a
// wrong one), for n a multiple of 4: entry j of each group of eight shares
// one division with entry j+4, the last quad takes one each. The
// conversions keep the compiler from fusing a product into a sum.
func pairStep(theta, u, v []float64, s, alpha, b, eps, tau float64, wrong wrongShortcut) {
	n := len(u) &^ 7
	for k := 0; k < n; k += 8 {
		groupStep(theta[k:k+8], u[k:k+8], v[k:k+8], s, alpha, b, eps, tau, wrong, func(theta, g, a []float64) {
			for j := range 4 {
				inv := alpha / float64(a[j]*a[j+4])
				theta[j] += float64(float64(g[j]*a[j+4]) * inv)
				theta[j+4] += float64(float64(g[j+4]*a[j]) * inv)
			}
		})
	}
	tailStep(theta[n:], u[n:], v[n:], s, alpha, b, eps, tau)
}
