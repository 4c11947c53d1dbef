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

// lstmBackward32H4 is LSTMBackward32's lane path at H = 4. δa of a step
// is two octets, [δa_i | δa_f] and [δa_g | δa_o], each entry computed by
// the operations of LSTMDelta32 in the same order (so the same bits);
// W_hhᵀ·δa multiplies the octets by W_hh's rows in pairs (j, 4+j) and
// (8+j, 12+j), each coefficient broadcast within its half, and adds the
// halves at the end:
//
//	δh_{s−1}[k] = ( (Σ_{j<2} δa[j]·W[j,k] + δa[4+j]·W[4+j,k] … ) )
//
// four partial sums of four products (two rows of each half-octet pair)
// added pairwise, then the two halves: other sums than AddMulT32's
// sixteen in row order, so other bits than its.
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
	h := tbLd4(tbBase(dh), 0)
	var c tb4 // the carry f·δc, zero above the newest step
	pd := tbBase(da[:16*w])
	for n := range w {
		pg := tbBase(gates[n][:16])
		ga, gb := tbLd(pg, 0), tbLd(pg, 8) // [i | f], [g | o]
		i, f, g, o := ga.GetLo(), ga.GetHi(), gb.GetLo(), gb.GetHi()
		t := tbLd4(tbBase(tc[n][:4]), 0)
		cprev := tbLd4(tbBase(cp[n][:4]), 0)
		dc := h.Mul(o).Mul(one4.Sub(t.Mul(t))).Add(c)
		do := h.Mul(t)
		c = dc.Mul(f)
		// [dc·g·i·(1−i) | dc·c_prev·f·(1−f)]
		daA := tbPair(dc, dc).Mul(tbPair(g, cprev)).Mul(ga).Mul(one8.Sub(ga))
		// [dc·i·(1−g·g) | do·o·(1−o)]
		daB := tbPair(dc, do).Mul(tbPair(i, o)).Mul(one8.Sub(gb.Mul(tbPair(g, one4))))
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
		h = s.GetLo().Add(s.GetHi())
	}
	tbSt4(c, tbBase(carry[:4]), 0)
	tbSt4(h, tbBase(dh[:4]), 0)
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

// outer32Rows4 is OuterSum32's lane path for rows of m = 4 entries: eight
// rows (or four, for the last R mod 8) at a time, a quad register each,
// each x[n] loaded once for them; the products added to each entry by
// fused multiply-adds in the order of n, as outerSum32Lanes's.
func outer32Rows4(g, d []float32, x [][]float32, R int, set bool) {
	pg, pd := tbBase(g[:4*R]), tbBase(d)
	var z tb4
	r := 0
	for ; r+8 <= R; r += 8 {
		a0, a1, a2, a3, a4, a5, a6, a7 := z, z, z, z, z, z, z, z
		if !set {
			a0, a1, a2, a3 = tbLd4(pg, 4*r), tbLd4(pg, 4*r+4), tbLd4(pg, 4*r+8), tbLd4(pg, 4*r+12)
			a4, a5, a6, a7 = tbLd4(pg, 4*r+16), tbLd4(pg, 4*r+20), tbLd4(pg, 4*r+24), tbLd4(pg, 4*r+28)
		}
		dn := unsafe.Add(pd, 4*r)
		for _, xn := range x {
			xv := tbLd4(tbBase(xn[:4]), 0)
			dq := (*[8]float32)(dn)
			a0 = archsimd.BroadcastFloat32x4(dq[0]).MulAdd(xv, a0)
			a1 = archsimd.BroadcastFloat32x4(dq[1]).MulAdd(xv, a1)
			a2 = archsimd.BroadcastFloat32x4(dq[2]).MulAdd(xv, a2)
			a3 = archsimd.BroadcastFloat32x4(dq[3]).MulAdd(xv, a3)
			a4 = archsimd.BroadcastFloat32x4(dq[4]).MulAdd(xv, a4)
			a5 = archsimd.BroadcastFloat32x4(dq[5]).MulAdd(xv, a5)
			a6 = archsimd.BroadcastFloat32x4(dq[6]).MulAdd(xv, a6)
			a7 = archsimd.BroadcastFloat32x4(dq[7]).MulAdd(xv, a7)
			dn = unsafe.Add(dn, 4*R)
		}
		tbSt4(a0, pg, 4*r)
		tbSt4(a1, pg, 4*r+4)
		tbSt4(a2, pg, 4*r+8)
		tbSt4(a3, pg, 4*r+12)
		tbSt4(a4, pg, 4*r+16)
		tbSt4(a5, pg, 4*r+20)
		tbSt4(a6, pg, 4*r+24)
		tbSt4(a7, pg, 4*r+28)
	}
	for ; r < R; r++ {
		a := z
		if !set {
			a = tbLd4(pg, 4*r)
		}
		for n, xn := range x {
			a = archsimd.BroadcastFloat32x4(d[n*R+r]).MulAdd(tbLd4(tbBase(xn[:4]), 0), a)
		}
		tbSt4(a, pg, 4*r)
	}
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
