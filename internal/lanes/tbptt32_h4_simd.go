//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// The lane paths of T-BPTT's float32 kernels at small widths (tbptt32.go,
// outer32.go): four hidden units (4H = 16 gates, two octets), rows of four
// entries, and whole quads of activations. At four units every vector of
// the recursion through the window is one quad or octet register.

type tb4 = archsimd.Float32x4
type tb8 = archsimd.Float32x8

func tbLd4(p unsafe.Pointer, i int) tb4 {
	return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, 4*i)))
}

func tbSt4(v tb4, p unsafe.Pointer, i int) { v.Store((*[4]float32)(unsafe.Add(p, 4*i))) }

// tbPair returns the octet [lo | hi].
func tbPair(lo, hi tb4) tb8 {
	var z tb8
	return z.SetLo(lo).SetHi(hi)
}

// lstmBackward32H4 is LSTMBackward32's lane path at H = 4, the recursion
// through the window in octet registers: δh and the carry f·δc twice
// ([v | v]), δa as [δa_i | δa_f] and [δa_g | δa_o]. The factors of each
// step that do not depend on δh are formed first, so that the recursion
// itself takes a multiply-add, a multiply and the sum W_hhᵀ·δa per step:
//
//	δc = δh·(o·(1 − tanh²c)) + carry          carry ← δc·f
//	δa_i = δc·(g·i·(1−i))    δa_f = δc·(c_{s−1}·f·(1−f))
//	δa_g = δc·(i·(1−g²))     δa_o = δh·(tanh c·o·(1−o))
//	δh_{s−1}[k] = Σ_j δa[j]·W[j,k]
//
// the factors in parentheses rounded first (other roundings than
// LSTMDelta32's, which rounds the products left to right). The sum takes
// W_hh's rows in pairs (j, 4+j) and (8+j, 12+j), an octet each, times δa's
// entries j and 4+j (8+j and 12+j) broadcast within their halves: four
// partial sums of two products, added pairwise, then the two halves.
func lstmBackward32H4(da, dh, carry, whh []float32, gates, tc, cp [][]float32) {
	w := len(gates)
	pw := tbBase(whh)
	// W_hh's rows in pairs: wa[j] = [row j | row 4+j], wb[j] = [row 8+j | row 12+j].
	wa0, wa1 := tbPair(tbLd4(pw, 0), tbLd4(pw, 16)), tbPair(tbLd4(pw, 4), tbLd4(pw, 20))
	wa2, wa3 := tbPair(tbLd4(pw, 8), tbLd4(pw, 24)), tbPair(tbLd4(pw, 12), tbLd4(pw, 28))
	wb0, wb1 := tbPair(tbLd4(pw, 32), tbLd4(pw, 48)), tbPair(tbLd4(pw, 36), tbLd4(pw, 52))
	wb2, wb3 := tbPair(tbLd4(pw, 40), tbLd4(pw, 56)), tbPair(tbLd4(pw, 44), tbLd4(pw, 60))
	one4 := archsimd.BroadcastFloat32x4(1)
	one8 := tbBc(1)
	var zero4 tb4
	h := tbLd4(tbBase(dh[:4]), 0)
	h8 := tbPair(h, h)
	var c8 tb8 // the carry, zero above the newest step
	pd := tbBase(da[:16*w])
	for n := range w {
		pg := tbBase(gates[n][:16])
		ga, gb := tbLd(pg, 0), tbLd(pg, 8) // [i | f], [g | o]
		i, f, g, o := ga.GetLo(), ga.GetHi(), gb.GetLo(), gb.GetHi()
		t := tbLd4(tbBase(tc[n][:4]), 0)
		cprev := tbLd4(tbBase(cp[n][:4]), 0)
		fo := o.Mul(one4.Sub(t.Mul(t)))
		fa := tbPair(g, cprev).Mul(ga).Mul(one8.Sub(ga))
		fg := i.Mul(one4.Sub(g.Mul(g)))
		fh := t.Mul(o).Mul(one4.Sub(o))
		dc8 := h8.MulAdd(tbPair(fo, fo), c8)
		c8 = dc8.Mul(tbPair(f, f))
		daA := dc8.Mul(fa)
		daB := dc8.MulAdd(tbPair(fg, zero4), h8.Mul(tbPair(zero4, fh)))
		tbSt(daA, pd, 16*n)
		tbSt(daB, pd, 16*n+8)
		if n == w-1 {
			break
		}
		p0 := daA.SelectFromPairGrouped(0, 0, 0, 0, daA).Mul(wa0)
		p1 := daA.SelectFromPairGrouped(2, 2, 2, 2, daA).Mul(wa2)
		p2 := daB.SelectFromPairGrouped(0, 0, 0, 0, daB).Mul(wb0)
		p3 := daB.SelectFromPairGrouped(2, 2, 2, 2, daB).Mul(wb2)
		p0 = daA.SelectFromPairGrouped(1, 1, 1, 1, daA).MulAdd(wa1, p0)
		p1 = daA.SelectFromPairGrouped(3, 3, 3, 3, daA).MulAdd(wa3, p1)
		p2 = daB.SelectFromPairGrouped(1, 1, 1, 1, daB).MulAdd(wb1, p2)
		p3 = daB.SelectFromPairGrouped(3, 3, 3, 3, daB).MulAdd(wb3, p3)
		s := p0.Add(p1).Add(p2.Add(p3))
		h8 = s.Add(s.Select128FromPair(1, 0, s)) // [lo+hi | hi+lo]
	}
	tbSt4(c8.GetLo(), tbBase(carry[:4]), 0)
	tbSt4(h8.GetLo(), tbBase(dh[:4]), 0)
}

// sumWindow32Lanes is SumWindow32's lane path: g[r] += Σ_n d[n·R+r] by
// octets of g (the last R mod 8 entries in scalar code), the n in order,
// the same sums as the scalar path's.
func sumWindow32Lanes(g, d []float32) {
	R := len(g)
	w := len(d) / R
	R8 := R &^ 7
	pg, pd := tbBase(g), tbBase(d)
	for r := 0; r < R8; r += 8 {
		acc := tbLd(pg, r)
		for n := range w {
			acc = acc.Add(tbLd(pd, n*R+r))
		}
		tbSt(acc, pg, r)
	}
	for r := R8; r < R; r++ {
		v := g[r]
		for n := range w {
			v += d[n*R+r]
		}
		g[r] = v
	}
}

// outer32Rows16 is OuterSum32's lane path for R = 16 rows (four hidden
// units) of m entries, m a multiple of 4: each quad of columns j..j+3 of
// all sixteen rows in eight octet registers, row r beside row r+4
// ([g[r, j:j+4] | g[r+4, j:j+4]] for r = 0..3, 8..11), the window's
// coefficients d[n·16+r] and d[n·16+r+4] broadcast within the halves of
// d's octets, x[n][j:j+4] in both halves; the products added to each entry
// by fused multiply-adds in the order of n, as outerSum32Lanes's.
func outer32Rows16(g, d []float32, x [][]float32, m int, set bool) {
	for j := 0; j < m; j += 4 {
		outer32Rows16x4(tbBase(g[:16*m]), tbBase(d), x, m, j, set)
	}
}

//go:noinline
func outer32Rows16x4(pg, pd unsafe.Pointer, x [][]float32, m, j int, set bool) {
	// Row r's quad starts at element r·m + j.
	ld := func(r int) tb8 { return tbPair(tbLd4(pg, r*m+j), tbLd4(pg, (r+4)*m+j)) }
	var a0, a1, a2, a3, b0, b1, b2, b3 tb8
	if !set {
		a0, a1, a2, a3 = ld(0), ld(1), ld(2), ld(3)
		b0, b1, b2, b3 = ld(8), ld(9), ld(10), ld(11)
	}
	dn := pd
	for _, xn := range x {
		xq := tbLd4(tbBase(xn), j)
		xv := tbPair(xq, xq)
		da, db := tbLd(dn, 0), tbLd(dn, 8)
		a0 = da.SelectFromPairGrouped(0, 0, 0, 0, da).MulAdd(xv, a0)
		a1 = da.SelectFromPairGrouped(1, 1, 1, 1, da).MulAdd(xv, a1)
		a2 = da.SelectFromPairGrouped(2, 2, 2, 2, da).MulAdd(xv, a2)
		a3 = da.SelectFromPairGrouped(3, 3, 3, 3, da).MulAdd(xv, a3)
		b0 = db.SelectFromPairGrouped(0, 0, 0, 0, db).MulAdd(xv, b0)
		b1 = db.SelectFromPairGrouped(1, 1, 1, 1, db).MulAdd(xv, b1)
		b2 = db.SelectFromPairGrouped(2, 2, 2, 2, db).MulAdd(xv, b2)
		b3 = db.SelectFromPairGrouped(3, 3, 3, 3, db).MulAdd(xv, b3)
		dn = unsafe.Add(dn, 64)
	}
	st := func(v tb8, r int) {
		tbSt4(v.GetLo(), pg, r*m+j)
		tbSt4(v.GetHi(), pg, (r+4)*m+j)
	}
	st(a0, 0)
	st(a1, 1)
	st(a2, 2)
	st(a3, 3)
	st(b0, 8)
	st(b1, 9)
	st(b2, 10)
	st(b3, 11)
}

// lstmGates32Quads is LSTMGates32's lane path for H a multiple of 4: each
// quad of pre-activations widened to float64, through sigmoid4 or tanh4
// (the functions of Sigmoid and Tanh's lane paths) and rounded, so the same
// bits as through Sigmoid and Tanh on the float64 scratch.
func lstmGates32Quads(g []float32) {
	H := len(g) / 4
	p := tbBase(g)
	for k := 0; k < 2*H; k += 4 {
		tbSt4(sigmoid4(tbLd4(p, k).ConvertToFloat64()).ConvertToFloat32(), p, k)
	}
	for k := 2 * H; k < 3*H; k += 4 {
		tbSt4(tanh4(tbLd4(p, k).ConvertToFloat64()).ConvertToFloat32(), p, k)
	}
	for k := 3 * H; k < 4*H; k += 4 {
		tbSt4(sigmoid4(tbLd4(p, k).ConvertToFloat64()).ConvertToFloat32(), p, k)
	}
}

// lstmTanh32Quads is LSTMTanh32's lane path for a length n multiple of 4,
// as lstmGates32Quads.
func lstmTanh32Quads(dst, src []float32) {
	pd, ps := tbBase(dst), tbBase(src)
	for k := 0; k < len(src); k += 4 {
		tbSt4(tanh4(tbLd4(ps, k).ConvertToFloat64()).ConvertToFloat32(), pd, k)
	}
}
