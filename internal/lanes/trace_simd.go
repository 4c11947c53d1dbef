//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// The trace kernels use separate multiplies and adds (no FMA) in the scalar
// order, so that they agree bitwise with the scalar path.

func traceLanes(hs, cs, x []float64, f, A, B, E, kappa float64) {
	vf, vA, vB, vE, vk := bc(f), bc(A), bc(B), bc(E), bc(kappa)
	n := len(x) &^ 3
	for k := 0; k < n; k += 4 {
		hOld := archsimd.LoadFloat64x4Slice(hs[k:])
		cNew := vf.Mul(archsimd.LoadFloat64x4Slice(cs[k:])).Add(vA.Mul(hOld)).Add(vk.Mul(archsimd.LoadFloat64x4Slice(x[k:])))
		cNew.StoreSlice(cs[k:])
		vB.Mul(cNew).Add(vE.Mul(hOld)).StoreSlice(hs[k:])
	}
	traceScalar(hs[n:], cs[n:], x[n:], f, A, B, E, kappa)
}

func traceOutLanes(hs, cs, x []float64, f, A, B, E, D float64) {
	vf, vA, vB, vE, vD := bc(f), bc(A), bc(B), bc(E), bc(D)
	n := len(x) &^ 3
	for k := 0; k < n; k += 4 {
		hOld := archsimd.LoadFloat64x4Slice(hs[k:])
		cNew := vf.Mul(archsimd.LoadFloat64x4Slice(cs[k:])).Add(vA.Mul(hOld))
		cNew.StoreSlice(cs[k:])
		vB.Mul(cNew).Add(vE.Mul(hOld)).Add(vD.Mul(archsimd.LoadFloat64x4Slice(x[k:]))).StoreSlice(hs[k:])
	}
	traceOutScalar(hs[n:], cs[n:], x[n:], f, A, B, E, D)
}
