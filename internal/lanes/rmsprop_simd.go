//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// rmspropLanes runs the RMSProp step four entries per instruction with a
// square root per lane (VSQRTPD) and one division (VDIVPD) per two vectors,
// shared like the scalar path's:
//
//	1/a = b·(α/(a·b))   and   1/b = a·(α/(a·b))      a, b = √v + ε of two quads
//
// The accumulator v is bitwise that of the scalar path; θ differs from one
// division per entry by at most a few ulps of the step (a·b cannot
// underflow, a, b ≥ ε, and overflows only for directions beyond 1e77).
//
// Where 512-bit square roots are full width (wideRMSProp) the same
// operations run eight entries per instruction (rmsprop8At): square roots
// bound this loop, and there one VSQRTPD of eight lanes costs about what one
// of four does.
func rmspropLanes(theta, u, v []float64, s, alpha, b, eps, tau float64) {
	n := len(u) &^ 3
	if n > 0 && wideRMSProp {
		rmsprop8At(base(theta), base(u), base(v), n, s, alpha, b, eps, tau)
	} else if n > 0 {
		rmspropAt(base(theta), base(u), base(v), n, s, alpha, b, eps, tau)
	}
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps, tau)
}

// rmspropAt is the loop of rmspropLanes over the first n (a multiple of 4)
// entries, a function of its own so that nothing of the caller is spilled
// inside it (see dot4At).
//
//go:noinline
func rmspropAt(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, eps, tau float64) {
	vs, vb, vc, va, ve, vf, vi := bc(s), bc(b), bc(1-b), bc(alpha), bc(eps), bc(tau), bc(idleBound(alpha))
	k := 0
	for ; k+8 <= n; k += 8 {
		g0, g1 := vs.Mul(ldAt(pu, k)), vs.Mul(ldAt(pu, k+4))
		v0 := vb.Mul(ldAt(pv, k)).Add(vc.Mul(g0).Mul(g0))
		v1 := vb.Mul(ldAt(pv, k+4)).Add(vc.Mul(g1).Mul(g1))
		stAt(floored(v0, vf), pv, k)
		stAt(floored(v1, vf), pv, k+4)
		if idle(g0, g1, v0, v1, vi) {
			stAt(ldAt(pt, k).Add(g0), pt, k)
			stAt(ldAt(pt, k+4).Add(g1), pt, k+4)
			continue
		}
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		stAt(ldAt(pt, k).Add(g0.Mul(a1).Mul(inv)), pt, k)
		stAt(ldAt(pt, k+4).Add(g1.Mul(a0).Mul(inv)), pt, k+4)
	}
	if k < n {
		rmspropQuadStep(pt, pv, k, vs.Mul(ldAt(pu, k)), vb, vc, ve, va, vf)
	}
	clearUpper()
}

// idle reports whether a pair of quads is idle: every scaled gradient g is
// ±0 and every new accumulator entry v below inf, the broadcast idleBound
// (finite where α ≥ 0). Its step then adds to θ exactly g (rmspropScalar's
// doc comment says why), without the square roots and the division.
func idle(g0, g1, v0, v1, inf f64x4) bool {
	var zero f64x4
	return g0.Equal(zero).And(g1.Equal(zero)).And(v0.Less(inf)).And(v1.Less(inf)).ToBits() == 0xf
}

// idle8 is idle for the two quads in the halves of g and v.
func idle8(g, v, inf f64x8) bool {
	var zero f64x8
	return g.Equal(zero).And(v.Less(inf)).ToBits() == 0xff
}

// floored is v with the lanes below tau (AccumulatorFloor) zeroed; NaN
// lanes are kept.
func floored(v, tau f64x4) f64x4 { return f64x4{}.Merge(v, v.Less(tau)) }

// floored8 is floored for eight lanes.
func floored8(v, tau f64x8) f64x8 { return f64x8{}.Merge(v, v.Less(tau)) }

// rmsprop8At is rmspropAt with each iteration's two quads k, k+4 in the
// halves of one eight-lane register: the product a·b of the shared division
// is that of the two halves (four lanes), and each half takes the other's
// factor, so every operation and its operands are those of rmspropAt and
// the results are bitwise equal (TestRMSPropWideMatchesQuads).
//
//go:noinline
func rmsprop8At(pt, pu, pv unsafe.Pointer, n int, s, alpha, b, eps, tau float64) {
	vs, vb, vc, ve, vf, vi := bc8(s), bc8(b), bc8(1-b), bc8(eps), bc8(tau), bc8(idleBound(alpha))
	va := bc(alpha)
	k := 0
	for ; k+8 <= n; k += 8 {
		rmsprop8Step(pt, pv, k, vs.Mul(ld8At(pu, k)), vb, vc, ve, va, vf, vi)
	}
	if k < n { // the broadcasts' low halves, not the scalars again: see rmsprop8FoldAt
		rmspropQuadStep(pt, pv, k, vs.GetLo().Mul(ldAt(pu, k)), vb.GetLo(), vc.GetLo(), ve.GetLo(), va, vf.GetLo())
	}
	clearUpper()
}

// rmsprop8Step updates the eight entries at k of θ (pt) and v (pv) given their
// scaled gradients g: the body of rmsprop8At's loop.
func rmsprop8Step(pt, pv unsafe.Pointer, k int, g, vb, vc, ve f64x8, va f64x4, vf, inf f64x8) {
	vi := vb.Mul(ld8At(pv, k)).Add(vc.Mul(g).Mul(g))
	st8At(floored8(vi, vf), pv, k)
	if idle8(g, vi, inf) {
		st8At(ld8At(pt, k).Add(g), pt, k)
		return
	}
	a := vi.Sqrt().Add(ve)
	a0, a1 := a.GetLo(), a.GetHi()
	inv := va.Div(a0.Mul(a1))
	st8At(ld8At(pt, k).Add(g.Mul(a.SetLo(a1).SetHi(a0)).Mul(a.SetLo(inv).SetHi(inv))), pt, k)
}

// rmspropQuadStep is rmsprop8Step for the last quad (its own division).
func rmspropQuadStep(pt, pv unsafe.Pointer, k int, g, vb, vc, ve, va, vf f64x4) {
	vi := vb.Mul(ldAt(pv, k)).Add(vc.Mul(g).Mul(g))
	stAt(floored(vi, vf), pv, k)
	stAt(ldAt(pt, k).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, k)
}

type f64x8 = archsimd.Float64x8

func bc8(x float64) f64x8 { return archsimd.BroadcastFloat64x8(x) }

// ld8At loads p[i:i+8]; st8At stores v there. The caller guarantees i+8 ≤ len.
func ld8At(p unsafe.Pointer, i int) f64x8 {
	return archsimd.LoadFloat64x8((*[8]float64)(unsafe.Add(p, 8*i)))
}

func st8At(v f64x8, p unsafe.Pointer, i int) { v.Store((*[8]float64)(unsafe.Add(p, 8*i))) }

// rmspropFoldLanes is RMSPropFold in one pass (rmsprop8FoldAt where
// wideRMSProp, else rmspropFoldAt), then the scalar tail: RMSProp's, then
// the fold's.
func rmspropFoldLanes(theta, u, v, t []float64, s, alpha, b, eps, d, c, tau float64) {
	n := len(u) &^ 3
	if n > 0 && wideRMSProp {
		rmsprop8FoldAt(base(theta), base(u), base(v), base(t), n, s, alpha, b, eps, d, c, tau)
	} else if n > 0 {
		rmspropFoldAt(base(theta), base(u), base(v), base(t), n, s, alpha, b, eps, d, c, tau)
	}
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps, tau)
	for i := n; i < len(u); i++ {
		u[i] = d*u[i] + c*t[i]
	}
}

// rmsprop8FoldAt is rmsprop8At that also folds t into u after reading it,
// u ← d·u + c·t (ScaleAdd's operations).
//
//go:noinline
func rmsprop8FoldAt(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha, b, eps, d, c, tau float64) {
	vs, vb, vc, ve, vd, vk, vf, vi := bc8(s), bc8(b), bc8(1-b), bc8(eps), bc8(d), bc8(c), bc8(tau), bc8(idleBound(alpha))
	va := bc(alpha)
	k := 0
	for ; k+8 <= n; k += 8 {
		u := ld8At(pu, k)
		st8At(vd.Mul(u).Add(vk.Mul(ld8At(ptr, k))), pu, k)
		rmsprop8Step(pt, pv, k, vs.Mul(u), vb, vc, ve, va, vf, vi)
	}
	// The last quad takes the broadcasts' low halves. Broadcasting the
	// scalars again kept them alive across the loop, and the compiler
	// reloaded them in every iteration with legacy-SSE moves while the upper
	// halves of the 512-bit registers were in use: on an Intel Xeon with
	// AVX-512 and AVX-VNNI each such move cost about a hundred cycles, and
	// this loop ran 18 times slower than rmspropFoldAt
	// (BenchmarkRMSPropLoops/fold8; docs/performance.md, "Intel").
	if k < n {
		u := ldAt(pu, k)
		stAt(vd.GetLo().Mul(u).Add(vk.GetLo().Mul(ldAt(ptr, k))), pu, k)
		rmspropQuadStep(pt, pv, k, vs.GetLo().Mul(u), vb.GetLo(), vc.GetLo(), ve.GetLo(), va, vf.GetLo())
	}
	clearUpper()
}

// rmspropFoldAt is rmspropAt that also folds t into u after reading it,
// u ← d·u + c·t (ScaleAdd's operations), four lanes per instruction.
//
//go:noinline
func rmspropFoldAt(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha, b, eps, d, c, tau float64) {
	vs, vb, vc, va, ve, vd, vk, vf, vi := bc(s), bc(b), bc(1-b), bc(alpha), bc(eps), bc(d), bc(c), bc(tau), bc(idleBound(alpha))
	k := 0
	for ; k+8 <= n; k += 8 {
		u0, u1 := ldAt(pu, k), ldAt(pu, k+4)
		stAt(vd.Mul(u0).Add(vk.Mul(ldAt(ptr, k))), pu, k)
		stAt(vd.Mul(u1).Add(vk.Mul(ldAt(ptr, k+4))), pu, k+4)
		g0, g1 := vs.Mul(u0), vs.Mul(u1)
		v0 := vb.Mul(ldAt(pv, k)).Add(vc.Mul(g0).Mul(g0))
		v1 := vb.Mul(ldAt(pv, k+4)).Add(vc.Mul(g1).Mul(g1))
		stAt(floored(v0, vf), pv, k)
		stAt(floored(v1, vf), pv, k+4)
		if idle(g0, g1, v0, v1, vi) {
			stAt(ldAt(pt, k).Add(g0), pt, k)
			stAt(ldAt(pt, k+4).Add(g1), pt, k+4)
			continue
		}
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		stAt(ldAt(pt, k).Add(g0.Mul(a1).Mul(inv)), pt, k)
		stAt(ldAt(pt, k+4).Add(g1.Mul(a0).Mul(inv)), pt, k+4)
	}
	if k < n {
		u := ldAt(pu, k)
		stAt(vd.Mul(u).Add(vk.Mul(ldAt(ptr, k))), pu, k)
		rmspropQuadStep(pt, pv, k, vs.Mul(u), vb, vc, ve, va, vf)
	}
	clearUpper()
}
