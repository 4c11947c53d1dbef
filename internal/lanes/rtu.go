package lanes

// RTUTraces advances the traces of one Recurrent Trace Unit's input weights
// by one step (package forward, RTU: (T1) and (T2) for w = W_1[j][k] and
// W_2[j][k]), element-wise over the m = len(x) inputs:
//
//	a1 ← kp·(g·a1 − φ·a2) + kpx·x      a2 ← kq·(g·a2 + φ·a1)
//	b1 ← kp·(g·b1 − φ·b2)              b2 ← kq·(g·b2 + φ·b1) + kqx·x
//
// where a1, a2 are the traces S¹, S² of W_1[j] and b1, b2 those of W_2[j],
// all read before any is written (len ≥ m each). Both paths perform the same
// operations in the same order and agree bitwise.
func RTUTraces(a1, a2, b1, b2, x []float64, kp, kq, g, phi, kpx, kqx float64) {
	m := len(x)
	a1, a2, b1, b2 = a1[:m], a2[:m], b1[:m], b2[:m]
	if useLanes {
		rtuTracesLanes(a1, a2, b1, b2, x, kp, kq, g, phi, kpx, kqx)
		clearUpper()
		return
	}
	rtuTracesScalar(a1, a2, b1, b2, x, kp, kq, g, phi, kpx, kqx)
}

// rtuTracesScalar is RTUTraces' reference loop (and the lane path's tail).
func rtuTracesScalar(a1, a2, b1, b2, x []float64, kp, kq, g, phi, kpx, kqx float64) {
	a1, a2, b1, b2 = a1[:len(x)], a2[:len(x)], b1[:len(x)], b2[:len(x)]
	for k, xk := range x {
		A1, A2 := a1[k], a2[k]
		a1[k] = kp*(g*A1-phi*A2) + kpx*xk
		a2[k] = kq * (g*A2 + phi*A1)
		B1, B2 := b1[k], b2[k]
		b1[k] = kp * (g*B1 - phi*B2)
		b2[k] = kq*(g*B2+phi*B1) + kqx*xk
	}
}

// Combine writes the element-wise combination of two vectors (len(t1),
// len(t2) ≥ len(z)):
//
//	z[k] = c1·t1[k] + c2·t2[k]
//
// Both paths perform the same operations and agree bitwise.
func Combine(z []float64, c1 float64, t1 []float64, c2 float64, t2 []float64) {
	t1, t2 = t1[:len(z)], t2[:len(z)]
	if useLanes {
		combineLanes(z, c1, t1, c2, t2)
		clearUpper()
		return
	}
	for k := range z {
		z[k] = c1*t1[k] + c2*t2[k]
	}
}
