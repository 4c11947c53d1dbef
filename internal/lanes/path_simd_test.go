//go:build goexperiment.simd && amd64

package lanes

import (
	"math"
	"simd/archsimd"
	"testing"
)

// TestPathIsSIMD checks that a GOEXPERIMENT=simd build on a CPU with AVX2
// and FMA runs the lane kernels (and the scalar ones otherwise).
func TestPathIsSIMD(t *testing.T) {
	want := "scalar"
	if archsimd.X86.AVX2() && archsimd.X86.FMA() {
		want = "simd"
	}
	if Path() != want {
		t.Errorf("Path() = %q, want %q", Path(), want)
	}
}

// TestActivationsEightLanesMatchFour checks exp8, sigmoid8 and tanh8 against
// exp4, sigmoid4 and tanh4, bitwise, on activationInputs (saturation,
// subnormals, ±0, ±Inf and NaN included).
func TestActivationsEightLanesMatchFour(t *testing.T) {
	if !avx512 {
		t.Skip("no AVX-512 on this CPU")
	}
	xs := activationInputs()
	xs = xs[:len(xs)&^7]
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	for _, fn := range []struct {
		name string
		f8   func(f64x8) f64x8
		f4   func(f64x4) f64x4
	}{{"exp", exp8, exp4}, {"sigmoid", sigmoid8, sigmoid4}, {"tanh", tanh8, tanh4}} {
		bad := 0
		for i := 0; i < len(xs); i += 8 {
			var got, lo, hi [8]float64
			var w4 [4]float64
			fn.f8(archsimd.LoadFloat64x8((*[8]float64)(xs[i:]))).Store(&got)
			fn.f4(archsimd.LoadFloat64x4((*[4]float64)(xs[i:]))).Store(&w4)
			copy(lo[:4], w4[:])
			fn.f4(archsimd.LoadFloat64x4((*[4]float64)(xs[i+4:]))).Store(&w4)
			copy(hi[4:], w4[:])
			for r := range 8 {
				want := lo[r]
				if r >= 4 {
					want = hi[r]
				}
				if !same(got[r], want) {
					if bad++; bad <= 5 {
						t.Errorf("%s(%v): eight lanes %v, four %v", fn.name, xs[i+r], got[r], want)
					}
				}
			}
		}
		clearUpper()
	}
}
