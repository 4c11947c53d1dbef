package lanes

import (
	"math"
	"testing"
)

// TestAllFinite puts each non-finite value at every position of vectors of
// 0 to 41 entries (the lane path's blocks of 16, quads and scalar tail) and
// checks that AllFinite finds it; vectors of finite extremes (the largest
// float64, the smallest subnormal, −0) are finite.
func TestAllFinite(t *testing.T) {
	finite := []float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1), 1e308, -3}
	for n := range 42 {
		x := make([]float64, n)
		for i := range x {
			x[i] = finite[i%len(finite)]
		}
		if !AllFinite(x) {
			t.Errorf("n=%d: finite extremes reported non-finite", n)
		}
		for i := range n {
			for _, bad := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
				keep := x[i]
				x[i] = bad
				if AllFinite(x) {
					t.Errorf("n=%d: %v at %d not found", n, bad, i)
				}
				x[i] = keep
			}
		}
	}
}
