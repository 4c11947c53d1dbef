//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

func normalizeLanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	vb, vo, ve, one := bc(beta), bc(oneMinus), bc(eps), bc(1)
	n := len(h) &^ 3
	for k := 0; k < n; k += 4 {
		hk := archsimd.LoadFloat64x4Slice(h[k:])
		muPrev := archsimd.LoadFloat64x4Slice(mean[k:])
		mu := vb.Mul(muPrev).Add(vo.Mul(hk))
		v := vb.Mul(archsimd.LoadFloat64x4Slice(variance[k:])).Add(vo.Mul(mu.Sub(hk)).Mul(muPrev.Sub(hk)))
		mu.StoreSlice(mean[k:])
		v.StoreSlice(variance[k:])
		sd := v.Sqrt()
		sd = ve.Merge(sd, sd.Less(ve))
		s := one.Div(sd)
		s.StoreSlice(scale[k:])
		hk.Sub(mu).Mul(s).StoreSlice(out[k:])
	}
	normalizeScalar(out[n:], h[n:], mean[n:], variance[n:], scale[n:], beta, oneMinus, eps)
}
