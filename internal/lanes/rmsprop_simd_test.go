//go:build goexperiment.simd && amd64

package lanes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRMSPropWideMatchesQuads checks the eight-lane RMSProp loop against the
// four-lane one, bitwise, for every multiple of 4 up to 40 entries (both
// loop shapes and the leftover quad), over a few steps so that v carries
// over; and that the comparison sees a change of one ulp in a step size.
func TestRMSPropWideMatchesQuads(t *testing.T) {
	if !eightLanes {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	run := func(n int, alpha8 float64) (mism int) {
		u := make([]float64, n)
		theta4, v4 := make([]float64, n), make([]float64, n)
		for i := range u {
			theta4[i] = rng.NormFloat64()
			v4[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta8, v8 := append([]float64(nil), theta4...), append([]float64(nil), v4...)
		for step := range 3 {
			for i := range u {
				u[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			}
			s := 0.3 - 0.4*float64(step)
			rmspropAt(base(theta4), base(u), base(v4), n, s, 1e-3, 0.9999, 1e-8)
			rmsprop8At(base(theta8), base(u), base(v8), n, s, alpha8, 0.9999, 1e-8)
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

// TestRMSPropFoldWideMatchesQuads checks the eight-lane one-pass fold
// (rmsprop8FoldAt) against the four-lane one (rmspropFoldAt), bitwise, for
// every multiple of 4 up to 40 entries, over a few steps; and that the
// comparison sees a fold coefficient one ulp off. Whichever of the two
// RMSPropFold takes on this CPU, the other is checked here.
func TestRMSPropFoldWideMatchesQuads(t *testing.T) {
	if !eightLanes {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	run := func(n int, c8 float64) (mism int) {
		theta4, u4, v4 := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range theta4 {
			theta4[i] = rng.NormFloat64()
			u4[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(40)-20)
			v4[i] = math.Ldexp(rng.Float64(), rng.IntN(40)-30)
		}
		theta8, u8, v8 := append([]float64(nil), theta4...), append([]float64(nil), u4...), append([]float64(nil), v4...)
		tr := make([]float64, n)
		for step := range 3 {
			for i := range tr {
				tr[i] = rng.NormFloat64()
			}
			s := 0.3 - 0.4*float64(step)
			rmspropFoldAt(base(theta4), base(u4), base(v4), base(tr), n, s, 1e-3, 0.9999, 1e-8, 0.891, -0.37)
			rmsprop8FoldAt(base(theta8), base(u8), base(v8), base(tr), n, s, 1e-3, 0.9999, 1e-8, 0.891, c8)
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
