//go:build goexperiment.simd && amd64

package lanes

func normalizeLanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	vb, vo, ve, one := bc(beta), bc(oneMinus), bc(eps), bc(1)
	hq := quads(h)
	oq, mq, vq, sq := quads(out)[:len(hq)], quads(mean)[:len(hq)], quads(variance)[:len(hq)], quads(scale)[:len(hq)]
	for k := range hq {
		hk := load(&hq[k])
		muPrev := load(&mq[k])
		mu := vb.Mul(muPrev).Add(vo.Mul(hk))
		v := vb.Mul(load(&vq[k])).Add(vo.Mul(mu.Sub(hk)).Mul(muPrev.Sub(hk)))
		mu.Store(&mq[k])
		v.Store(&vq[k])
		sd := v.Sqrt()
		sd = ve.Merge(sd, sd.Less(ve))
		s := one.Div(sd)
		s.Store(&sq[k])
		hk.Sub(mu).Mul(s).Store(&oq[k])
	}
	n := 4 * len(hq)
	normalizeScalar(out[n:], h[n:], mean[n:], variance[n:], scale[n:], beta, oneMinus, eps)
}
