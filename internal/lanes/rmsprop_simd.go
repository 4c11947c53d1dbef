//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// rmspropLanes runs the RMSProp step four entries per instruction with a
// square root and a division per lane (VSQRTPD, VDIVPD): the accumulator v is
// bitwise that of the scalar path; θ differs from the scalar path's shared
// division by at most a few ulps of the step.
func rmspropLanes(theta, u, v []float64, s, alpha, b, eps float64) {
	vs := archsimd.BroadcastFloat64x4(s)
	vb := archsimd.BroadcastFloat64x4(b)
	vc := archsimd.BroadcastFloat64x4(1 - b)
	va := archsimd.BroadcastFloat64x4(alpha)
	ve := archsimd.BroadcastFloat64x4(eps)
	uq := quads(u)
	tq, vq := quads(theta)[:len(uq)], quads(v)[:len(uq)]
	for k := range uq {
		g := vs.Mul(load(&uq[k]))
		vi := vb.Mul(load(&vq[k])).Add(vc.Mul(g).Mul(g))
		vi.Store(&vq[k])
		step := va.Mul(g).Div(vi.Sqrt().Add(ve))
		load(&tq[k]).Add(step).Store(&tq[k])
	}
	n := 4 * len(uq)
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps)
}
