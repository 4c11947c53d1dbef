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

// outer32Rows4 is OuterSum32's lane path for rows of m = 4 entries: four
// rows at a time (single rows for the last R mod 4), a quad register
// each, each x[n] loaded once for them; the products added to each entry
// by fused multiply-adds in the order of n, as outerSum32Lanes's.
func outer32Rows4(g, d []float32, x [][]float32, R int, set bool) {
	pg, pd := tbBase(g[:4*R]), tbBase(d)
	r := 0
	for ; r+4 <= R; r += 4 {
		outer32x4x4(unsafe.Add(pg, 16*r), pd, x, R, r, 4, 0, set)
	}
	for ; r < R; r++ {
		var a tb4
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
