//go:build goexperiment.simd && amd64

package lanes

import "unsafe"

func normalizeLanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	n := len(h) &^ 3
	if n > 0 {
		normalizeAt(base(out), base(h), base(mean), base(variance), base(scale), n, beta, oneMinus, eps)
	}
	normalizeScalar(out[n:], h[n:], mean[n:], variance[n:], scale[n:], beta, oneMinus, eps)
}

// normalizeAt is the loop of normalizeLanes over the first n (a multiple of
// 4) values (a function of its own, see dot4At).
//
//go:noinline
func normalizeAt(po, ph, pm, pv, ps unsafe.Pointer, n int, beta, oneMinus, eps float64) {
	vb, vo, ve, one := bc(beta), bc(oneMinus), bc(eps), bc(1)
	for k := 0; k < n; k += 4 {
		hk := ldAt(ph, k)
		muPrev := ldAt(pm, k)
		mu := vb.Mul(muPrev).Add(vo.Mul(hk))
		v := vb.Mul(ldAt(pv, k)).Add(vo.Mul(mu.Sub(hk)).Mul(muPrev.Sub(hk)))
		stAt(mu, pm, k)
		stAt(v, pv, k)
		sd := v.Sqrt()
		sd = ve.Merge(sd, sd.Less(ve))
		s := one.Div(sd)
		stAt(s, ps, k)
		stAt(hk.Sub(mu).Mul(s), po, k)
	}
	clearUpper()
}
