//go:build goexperiment.simd && amd64

package lanes

// The trace kernels use separate multiplies and adds (no FMA) in the scalar
// order, so that they agree bitwise with the scalar path.

func traceLanes(hs, cs, x []float64, f, A, B, E, kappa float64) {
	vf, vA, vB, vE, vk := bc(f), bc(A), bc(B), bc(E), bc(kappa)
	xq := quads(x)
	hq, cq := quads(hs)[:len(xq)], quads(cs)[:len(xq)]
	for k := range xq {
		hOld := load(&hq[k])
		cNew := vf.Mul(load(&cq[k])).Add(vA.Mul(hOld)).Add(vk.Mul(load(&xq[k])))
		cNew.Store(&cq[k])
		vB.Mul(cNew).Add(vE.Mul(hOld)).Store(&hq[k])
	}
	n := 4 * len(xq)
	traceScalar(hs[n:], cs[n:], x[n:], f, A, B, E, kappa)
}

func traceOutLanes(hs, cs, x []float64, f, A, B, E, D float64) {
	vf, vA, vB, vE, vD := bc(f), bc(A), bc(B), bc(E), bc(D)
	xq := quads(x)
	hq, cq := quads(hs)[:len(xq)], quads(cs)[:len(xq)]
	for k := range xq {
		hOld := load(&hq[k])
		cNew := vf.Mul(load(&cq[k])).Add(vA.Mul(hOld))
		cNew.Store(&cq[k])
		vB.Mul(cNew).Add(vE.Mul(hOld)).Add(vD.Mul(load(&xq[k]))).Store(&hq[k])
	}
	n := 4 * len(xq)
	traceOutScalar(hs[n:], cs[n:], x[n:], f, A, B, E, D)
}
