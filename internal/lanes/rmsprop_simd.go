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
	n := len(u) &^ 3
	for i := 0; i < n; i += 4 {
		g := vs.Mul(archsimd.LoadFloat64x4Slice(u[i:]))
		vi := vb.Mul(archsimd.LoadFloat64x4Slice(v[i:])).Add(vc.Mul(g).Mul(g))
		vi.StoreSlice(v[i:])
		step := va.Mul(g).Div(vi.Sqrt().Add(ve))
		archsimd.LoadFloat64x4Slice(theta[i:]).Add(step).StoreSlice(theta[i:])
	}
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps)
}
