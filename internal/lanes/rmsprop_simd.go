//go:build goexperiment.simd && amd64

package lanes

import "unsafe"

// rmspropLanes runs the RMSProp step four entries per instruction with a
// square root and a division per lane (VSQRTPD, VDIVPD): the accumulator v is
// bitwise that of the scalar path; θ differs from the scalar path's shared
// division by at most a few ulps of the step.
func rmspropLanes(theta, u, v []float64, s, alpha, b, eps float64) {
	n := len(u) &^ 3
	if n > 0 {
		rmspropAt(base(theta), base(u), base(v), n, s, alpha, b, eps)
	}
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps)
}

// rmspropAt is the loop of rmspropLanes over the first n (a multiple of 4)
// entries, a function of its own so that nothing of the caller is spilled
// inside it (see dot4At).
//
//go:noinline
func rmspropAt(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, eps float64) {
	vs, vb, vc, va, ve := bc(s), bc(b), bc(1-b), bc(alpha), bc(eps)
	for k := 0; k < n; k += 4 {
		g := vs.Mul(ldAt(pu, k))
		vi := vb.Mul(ldAt(pv, k)).Add(vc.Mul(g).Mul(g))
		stAt(vi, pv, k)
		stAt(ldAt(pt, k).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, k)
	}
}
