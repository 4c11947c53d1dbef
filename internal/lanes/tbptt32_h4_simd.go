//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// The lane paths of T-BPTT's float32 kernels at four hidden units
// (tbptt32.go, outer32.go; 4H = 16 gates, two octets), where every vector
// of the recursion through the window is one quad or octet register and
// the gradient's sixteen rows are two octets, and SumWindow32's octets.

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
	clearUpper() // the scalar tail is SSE-encoded (see doc.go)
	for r := R8; r < R; r++ {
		v := g[r]
		for n := range w {
			v += d[n*R+r]
		}
		g[r] = v
	}
}

// outer32Set16 is OuterSet32's lane path for R = 16 rows (four hidden
// units) of m entries, m a multiple of 4: for each quad of columns
// j..j+3, the sixteen rows' entries of each column in two octet registers
// (the transposed block), the window's coefficients d[n·16 : n·16+16]
// loaded as two octets and x[n][j+k] broadcast; the products added to
// each entry by fused multiply-adds in the order of n from zero, as
// outerSum32Lanes's (so the same bits); the block transposed into rows at
// the end.
func outer32Set16(g, d []float32, x [][]float32, m int) {
	for j := 0; j < m; j += 4 {
		outer32Set16x4(tbBase(g[:16*m]), tbBase(d), x, m, j)
	}
}

//go:noinline
func outer32Set16x4(pg, pd unsafe.Pointer, x [][]float32, m, j int) {
	// a_k holds column j+k of rows 0..7, b_k of rows 8..15.
	var a0, a1, a2, a3, b0, b1, b2, b3 tb8
	dn := pd
	for _, xn := range x {
		xq := (*[4]float32)(unsafe.Add(tbBase(xn), 4*j))
		da, db := tbLd(dn, 0), tbLd(dn, 8)
		v := tbBc(xq[0])
		a0, b0 = da.MulAdd(v, a0), db.MulAdd(v, b0)
		v = tbBc(xq[1])
		a1, b1 = da.MulAdd(v, a1), db.MulAdd(v, b1)
		v = tbBc(xq[2])
		a2, b2 = da.MulAdd(v, a2), db.MulAdd(v, b2)
		v = tbBc(xq[3])
		a3, b3 = da.MulAdd(v, a3), db.MulAdd(v, b3)
		dn = unsafe.Add(dn, 64)
	}
	tbStoreT(pg, m, j, 0, a0, a1, a2, a3)
	tbStoreT(pg, m, j, 8, b0, b1, b2, b3)
	clearUpper()
}

// tbStoreT stores the columns c0..c3 of the rows r..r+7 (an octet each)
// into the row-major g (rows of m entries, at columns j..j+3): a 4×4
// transpose in each half.
func tbStoreT(pg unsafe.Pointer, m, j, r int, c0, c1, c2, c3 tb8) {
	t0 := c0.SelectFromPairGrouped(0, 1, 4, 5, c1) // c0[0] c0[1] c1[0] c1[1]
	t2 := c0.SelectFromPairGrouped(2, 3, 6, 7, c1) // c0[2] c0[3] c1[2] c1[3]
	t1 := c2.SelectFromPairGrouped(0, 1, 4, 5, c3)
	t3 := c2.SelectFromPairGrouped(2, 3, 6, 7, c3)
	r0 := t0.SelectFromPairGrouped(0, 2, 4, 6, t1) // rows r and r+4
	r1 := t0.SelectFromPairGrouped(1, 3, 5, 7, t1)
	r2 := t2.SelectFromPairGrouped(0, 2, 4, 6, t3)
	r3 := t2.SelectFromPairGrouped(1, 3, 5, 7, t3)
	tbSt4(r0.GetLo(), pg, r*m+j)
	tbSt4(r1.GetLo(), pg, (r+1)*m+j)
	tbSt4(r2.GetLo(), pg, (r+2)*m+j)
	tbSt4(r3.GetLo(), pg, (r+3)*m+j)
	tbSt4(r0.GetHi(), pg, (r+4)*m+j)
	tbSt4(r1.GetHi(), pg, (r+5)*m+j)
	tbSt4(r2.GetHi(), pg, (r+6)*m+j)
	tbSt4(r3.GetHi(), pg, (r+7)*m+j)
}
