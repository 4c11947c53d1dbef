//go:build goexperiment.simd && amd64

package lanes

import "unsafe"

func rtuTracesLanes(a1, a2, b1, b2, x []float64, kp, kq, g, phi, kpx, kqx float64) {
	n := len(x) &^ 3
	if n > 0 {
		rtuTracesAt(base(a1), base(a2), base(b1), base(b2), base(x), n, kp, kq, g, phi, kpx, kqx)
	}
	rtuTracesScalar(a1[n:], a2[n:], b1[n:], b2[n:], x[n:], kp, kq, g, phi, kpx, kqx)
}

// rtuTracesAt is the loop of rtuTracesLanes over the first n (a multiple of
// 4) entries, a function of its own so that nothing of the caller is
// spilled inside it (see dot4At).
//
//go:noinline
func rtuTracesAt(pa1, pa2, pb1, pb2, px unsafe.Pointer, n int, kp, kq, g, phi, kpx, kqx float64) {
	vkp, vkq, vg, vphi, vkpx, vkqx := bc(kp), bc(kq), bc(g), bc(phi), bc(kpx), bc(kqx)
	for k := 0; k < n; k += 4 {
		xk := ldAt(px, k)
		A1, A2 := ldAt(pa1, k), ldAt(pa2, k)
		stAt(vkp.Mul(vg.Mul(A1).Sub(vphi.Mul(A2))).Add(vkpx.Mul(xk)), pa1, k)
		stAt(vkq.Mul(vg.Mul(A2).Add(vphi.Mul(A1))), pa2, k)
		B1, B2 := ldAt(pb1, k), ldAt(pb2, k)
		stAt(vkp.Mul(vg.Mul(B1).Sub(vphi.Mul(B2))), pb1, k)
		stAt(vkq.Mul(vg.Mul(B2).Add(vphi.Mul(B1))).Add(vkqx.Mul(xk)), pb2, k)
	}
	clearUpper()
}

func combineLanes(z []float64, c1 float64, t1 []float64, c2 float64, t2 []float64) {
	n := len(z) &^ 3
	if n > 0 {
		combineAt(base(z), base(t1), base(t2), n, c1, c2)
	}
	for k := n; k < len(z); k++ {
		z[k] = c1*t1[k] + c2*t2[k]
	}
}

// combineAt is the loop of combineLanes over the first n (a multiple of 4)
// entries.
//
//go:noinline
func combineAt(pz, pt1, pt2 unsafe.Pointer, n int, c1, c2 float64) {
	v1, v2 := bc(c1), bc(c2)
	for k := 0; k < n; k += 4 {
		stAt(v1.Mul(ldAt(pt1, k)).Add(v2.Mul(ldAt(pt2, k))), pz, k)
	}
	clearUpper()
}
