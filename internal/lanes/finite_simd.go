//go:build goexperiment.simd && amd64

package lanes

import "unsafe"

// allFiniteLanes is AllFinite's lane loop over x, len(x) a multiple of 4:
// four independent accumulators of x − x, a quad each, then their sum.
func allFiniteLanes(x []float64) bool { return allFiniteAt(base(x), len(x)) }

//go:noinline
func allFiniteAt(p unsafe.Pointer, n int) bool {
	var a0, a1, a2, a3 f64x4
	k := 0
	for ; k+16 <= n; k += 16 {
		v0, v1, v2, v3 := ldAt(p, k), ldAt(p, k+4), ldAt(p, k+8), ldAt(p, k+12)
		a0, a1 = a0.Add(v0.Sub(v0)), a1.Add(v1.Sub(v1))
		a2, a3 = a2.Add(v2.Sub(v2)), a3.Add(v3.Sub(v3))
	}
	for ; k < n; k += 4 {
		v := ldAt(p, k)
		a0 = a0.Add(v.Sub(v))
	}
	var s [4]float64
	a0.Add(a1).Add(a2.Add(a3)).Store(&s)
	clearUpper()
	return s[0] == 0 && s[1] == 0 && s[2] == 0 && s[3] == 0
}
