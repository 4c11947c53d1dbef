//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// rmsprop32Lanes is the lane path of RMSProp32 (n ≥ 8).
func rmsprop32Lanes(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	rmsprop32SharedAt(base32(theta), base32(u), base32(v), len(u),
		float32(s), float32(alpha), float32(b), float32(1-b), float32(eps), tau)
}

// floored32 is v with the lanes below tau (AccumulatorFloor32) zeroed; NaN
// lanes are kept.
func floored32(v, tau f32x8) f32x8 { return f32x8{}.Merge(v, v.Less(tau)) }

// rmsprop32SharedAt is the loop of RMSProp32 over n ≥ 8 entries.
//
//go:noinline
func rmsprop32SharedAt(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, c, eps, tau float32) {
	vs, vb, vc, va, ve, vf := bc32(s), bc32(b), bc32(c), bc32(alpha), bc32(eps), bc32(tau)
	n8 := n &^ 7
	// The last octet, from the old values (when n is not a whole number
	// of octets).
	var lv, lt f32x8
	if n8 < n {
		g := vs.Mul(ld32At(pu, n-8))
		lv = vc.Mul(g).MulAdd(g, vb.Mul(ld32At(pv, n-8)))
		lt = ld32At(pt, n-8).Add(va.Mul(g).Div(lv.Sqrt().Add(ve)))
	}
	k := 0
	for ; k+16 <= n8; k += 16 {
		g0, g1 := vs.Mul(ld32At(pu, k)), vs.Mul(ld32At(pu, k+8))
		v0 := vc.Mul(g0).MulAdd(g0, vb.Mul(ld32At(pv, k)))
		v1 := vc.Mul(g1).MulAdd(g1, vb.Mul(ld32At(pv, k+8)))
		st32At(floored32(v0, vf), pv, k)
		st32At(floored32(v1, vf), pv, k+8)
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		st32At(ld32At(pt, k).Add(g0.Mul(a1).Mul(inv)), pt, k)
		st32At(ld32At(pt, k+8).Add(g1.Mul(a0).Mul(inv)), pt, k+8)
	}
	if k < n8 {
		g := vs.Mul(ld32At(pu, k))
		vi := vc.Mul(g).MulAdd(g, vb.Mul(ld32At(pv, k)))
		st32At(floored32(vi, vf), pv, k)
		st32At(ld32At(pt, k).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, k)
	}
	if n8 < n {
		st32At(floored32(lv, vf), pv, n-8)
		st32At(lt, pt, n-8)
	}
	clearUpper()
}

// rmspropFold32Lanes is the lane path of RMSPropFold32 (n ≥ 8).
func rmspropFold32Lanes(theta, u, v, t []float32, s, alpha, b, eps, d, c float64, tau float32) {
	rmspropFold32At(base32(theta), base32(u), base32(v), base32(t), len(u), float32(s), float32(alpha), float32(b),
		float32(1-b), float32(eps), float32(d), float32(c), tau)
}

//go:noinline
func rmspropFold32At(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha, b, c, eps, d, k, tau float32) {
	vs, vb, vc, va, ve, vd, vk, vf := bc32(s), bc32(b), bc32(c), bc32(alpha), bc32(eps), bc32(d), bc32(k), bc32(tau)
	n8 := n &^ 7
	// The last octet from the old values.
	lu := ld32At(pu, n-8)
	g := vs.Mul(lu)
	lv := vc.Mul(g).MulAdd(g, vb.Mul(ld32At(pv, n-8)))
	lt := ld32At(pt, n-8).Add(va.Mul(g).Div(lv.Sqrt().Add(ve)))
	lz := flush32(vd.MulAdd(lu, vk.Mul(ld32At(ptr, n-8))))
	i := 0
	for ; i+16 <= n8; i += 16 {
		u0, u1 := ld32At(pu, i), ld32At(pu, i+8)
		st32At(flush32(vd.MulAdd(u0, vk.Mul(ld32At(ptr, i)))), pu, i)
		st32At(flush32(vd.MulAdd(u1, vk.Mul(ld32At(ptr, i+8)))), pu, i+8)
		g0, g1 := vs.Mul(u0), vs.Mul(u1)
		v0 := vc.Mul(g0).MulAdd(g0, vb.Mul(ld32At(pv, i)))
		v1 := vc.Mul(g1).MulAdd(g1, vb.Mul(ld32At(pv, i+8)))
		st32At(floored32(v0, vf), pv, i)
		st32At(floored32(v1, vf), pv, i+8)
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		st32At(ld32At(pt, i).Add(g0.Mul(a1).Mul(inv)), pt, i)
		st32At(ld32At(pt, i+8).Add(g1.Mul(a0).Mul(inv)), pt, i+8)
	}
	if i < n8 {
		u0 := ld32At(pu, i)
		st32At(flush32(vd.MulAdd(u0, vk.Mul(ld32At(ptr, i)))), pu, i)
		g := vs.Mul(u0)
		vi := vc.Mul(g).MulAdd(g, vb.Mul(ld32At(pv, i)))
		st32At(floored32(vi, vf), pv, i)
		st32At(ld32At(pt, i).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, i)
	}
	st32At(floored32(lv, vf), pv, n-8)
	st32At(lt, pt, n-8)
	st32At(lz, pu, n-8)
	clearUpper()
}

// rmsprop32PartLanes is the lane path of RMSProp32 for 0 < n < 8 entries:
// the operations of one octet of rmsprop32SharedAt on masked loads (the
// lanes past n hold zeros, and their results are not stored).
func rmsprop32PartLanes(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	vs, vb, vc := bc32of(bc(s)), bc32of(bc(b)), bc32of(ld(&kOne).Sub(bc(b)))
	va, ve := bc32of(bc(alpha)), bc32of(bc(eps))
	g := vs.Mul(archsimd.LoadFloat32x8SlicePart(u))
	vi := vc.Mul(g).MulAdd(g, vb.Mul(archsimd.LoadFloat32x8SlicePart(v)))
	floored32(vi, bc32(tau)).StoreSlicePart(v)
	archsimd.LoadFloat32x8SlicePart(theta).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))).StoreSlicePart(theta)
}

// rmsprop32HeadLanes is the lane path of RMSPropHead32 (0 < n ≤ 8):
// rmsprop32PartLanes with step size alphaHead in the lanes below nh.
func rmsprop32HeadLanes(theta, u, v []float32, nh int, s, alphaHead, alpha, b, eps float64, tau float32) {
	vs, vb, vc := bc32of(bc(s)), bc32of(bc(b)), bc32of(ld(&kOne).Sub(bc(b)))
	va := bc32of(bc(alphaHead)).Merge(bc32of(bc(alpha)), archsimd.LoadInt32x8(&laneIndex32i).Less(archsimd.BroadcastInt32x8(int32(nh))))
	ve := bc32of(bc(eps))
	g := vs.Mul(archsimd.LoadFloat32x8SlicePart(u))
	vi := vc.Mul(g).MulAdd(g, vb.Mul(archsimd.LoadFloat32x8SlicePart(v)))
	floored32(vi, bc32(tau)).StoreSlicePart(v)
	archsimd.LoadFloat32x8SlicePart(theta).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))).StoreSlicePart(theta)
}
