package lanes

import "fmt"

// OuterSum adds the sum of the outer products d_n ⊗ x_n over a window of
// n = 0..len(x)−1 to the row-major matrix g (R rows of m = len(g)/R, with
// R = len(d)/len(x) and every x[n] of length m), the n in order:
//
//	g[r·m+j] += Σ_n d[n·R+r]·x[n][j]
//
// Both paths add the products one at a time in the order of n and agree
// bitwise; the lane path keeps a row's sums in registers across the window
// instead of writing g back after every n.
func OuterSum(g, d []float64, x [][]float64) {
	if len(x) == 0 {
		return
	}
	R, m := outerShape("OuterSum", g, d, x)
	if useLanes && m >= 4 {
		outerSumLanes(g, d, x, R, m)
		clearUpper()
		return
	}
	outerScalar(g, d, x, R, m)
}

// OuterSumSparse is OuterSum for a window of mostly zero vectors (the pixel
// games' inputs are 2-8% nonzero): nz[n] lists distinct indices j, in any
// order, that include every j with x[n][j] ≠ 0 (NaN included), and only their
// products are added, each entry's in the order of n:
//
//	g[r·m+j] += Σ_n d[n·R+r]·x[n][j]      j in nz[n]
//
// Its results equal OuterSum's bitwise when no entry of g is −0 and every
// entry of d is finite (Grad's gradient: cleared to +0, δa finite on a run
// that has not diverged): a skipped product is ±0, and in round-to-nearest
// s + (±0) = s for every s but −0, which a sum that starts at +0 never
// becomes (a sum is −0 only when both terms are). A non-finite d[n·R+r]
// times a zero x[n][j] would be NaN in OuterSum and is skipped here. Each
// product is rounded before it is added, as on the lane path of OuterSum, or
// written like the scalar path's where that one runs, so that the two agree
// on every platform (Go may fuse x·y + z).
func OuterSumSparse(g, d []float64, x [][]float64, nz [][]int32) {
	if len(x) == 0 {
		return
	}
	R, m := outerShape("OuterSumSparse", g, d, x)
	if len(nz) != len(x) {
		panic(fmt.Sprintf("lanes: OuterSumSparse of %d vectors with %d index lists", len(x), len(nz)))
	}
	if useLanes && m >= 4 {
		for n, xn := range x {
			dn := d[n*R : (n+1)*R]
			for _, j := range nz[n] {
				xj, col := xn[j], g[j:]
				for r, dr := range dn {
					col[r*m] += float64(dr * xj) // rounded: OuterSum's lanes multiply, then add
				}
			}
		}
		return
	}
	for n, xn := range x {
		dn := d[n*R : (n+1)*R]
		for _, j := range nz[n] {
			xj, col := xn[j], g[j:]
			for r, dr := range dn {
				col[r*m] += dr * xj // as outerScalar writes it
			}
		}
	}
}

// AddMulT adds Wᵀ·d to z, W being row-major with len(d) rows of len(z):
//
//	z[j] += Σ_r d[r]·W[r·n+j]      n = len(z), rows r in order
//
// Both paths agree bitwise.
func AddMulT(z, w, d []float64) {
	n := len(z)
	w = w[:len(d)*n]
	if useLanes && n >= 4 {
		addMulTLanes(z, w, d)
		clearUpper()
		return
	}
	// The sums of two entries at a time in registers over the rows in
	// order: the same additions as z[j] += d[r]·w[r·n+j] row after row,
	// in two independent chains, without a store and a reload of z[j]
	// between two of them.
	j := 0
	for ; j+2 <= n; j += 2 {
		s0, s1 := z[j], z[j+1]
		for r, dr := range d {
			wr := w[r*n+j : r*n+j+2]
			s0 += dr * wr[0]
			s1 += dr * wr[1]
		}
		z[j], z[j+1] = s0, s1
	}
	if j < n {
		s := z[j]
		for r, dr := range d {
			s += dr * w[r*n+j]
		}
		z[j] = s
	}
}

// LSTMDelta runs one step of the backward pass of a dense LSTM (package
// backward documents it) for every hidden unit j < H = len(dh): from δh and
// the carry f·δc of the step above, the stored gate activations gates
// (i, f, g, o, H each), tanh(c) tc and the previous cell state cp,
//
//	δc = δh·o·(1 − tanh²c) + carry
//	δa_i = δc·g·i(1−i)    δa_f = δc·c_prev·f(1−f)
//	δa_g = δc·i·(1−g²)    δa_o = δh·tanh(c)·o(1−o)
//	carry ← δc·f
//
// into da (4H, gate order i, f, g, o). Both paths do the operations in this
// order and agree bitwise.
func LSTMDelta(da, dh, carry, gates, tc, cp []float64) {
	H := len(dh)
	if len(da) != 4*H || len(carry) != H || len(gates) != 4*H || len(tc) != H || len(cp) != H {
		panic(fmt.Sprintf("lanes: LSTMDelta of %d units with δa %d, carry %d, gates %d, tanh c %d, c_prev %d",
			H, len(da), len(carry), len(gates), len(tc), len(cp)))
	}
	if useLanes && H >= 4 {
		lstmDeltaLanes(da, dh, carry, gates, tc, cp)
		clearUpper()
		return
	}
	lstmDeltaScalar(da, dh, carry, gates, tc, cp, 0)
}

// LSTMBackward runs the backward pass of a dense LSTM through a window of
// w = len(gates) steps, newest first: from δh = dh of the newest step and a
// zero carry, for n = 0..w−1
//
//	LSTMDelta(δa_n, δh, carry, gates[n], tc[n], cp[n])     δa_n = da[n·4H:(n+1)·4H]
//	δh ← 0 + W_hhᵀ·δa_n         (AddMulT into zeros; not after the oldest step)
//
// with H = len(dh) and W_hh (4H rows of H) in whh. dh, carry and next (H
// each, scratch) are overwritten. Both paths do the operations of LSTMDelta
// and AddMulT in their order and agree bitwise; the lane path (H ≥ 4) runs
// the whole window in one call.
func LSTMBackward(da, dh, carry, next, whh []float64, gates, tc, cp [][]float64) {
	H, w := len(dh), len(gates)
	if len(da) < 4*H*w || len(carry) != H || len(next) != H || len(whh) != 4*H*H || len(tc) != w || len(cp) != w {
		panic(fmt.Sprintf("lanes: LSTMBackward of %d units over %d steps with δa %d, carry %d, next %d, W_hh %d, %d tanh c, %d c_prev",
			H, w, len(da), len(carry), len(next), len(whh), len(tc), len(cp)))
	}
	for n := range w {
		if len(gates[n]) != 4*H || len(tc[n]) != H || len(cp[n]) != H {
			panic(fmt.Sprintf("lanes: LSTMBackward step %d with gates %d, tanh c %d, c_prev %d, want %d, %d, %d",
				n, len(gates[n]), len(tc[n]), len(cp[n]), 4*H, H, H))
		}
	}
	clear(carry)
	if useLanes && H >= 4 {
		lstmBackwardLanes(da, dh, carry, next, whh, gates, tc, cp)
		clearUpper()
		return
	}
	for n := range w {
		LSTMDelta(da[n*4*H:(n+1)*4*H], dh, carry, gates[n], tc[n], cp[n])
		if n < w-1 {
			clear(next)
			AddMulT(next, whh, da[n*4*H:(n+1)*4*H])
			dh, next = next, dh
		}
	}
}

// SumWindow adds the w = len(d)/len(g) vectors of d (each len(g) long, one
// after the other) to g, in order:
//
//	g[r] += Σ_n d[n·R+r]      R = len(g)
//
// Both paths add them one at a time in the order of n and agree bitwise;
// the lane path keeps four sums in a register across the window.
func SumWindow(g, d []float64) {
	R := len(g)
	if R == 0 || len(d)%R != 0 {
		panic(fmt.Sprintf("lanes: SumWindow of %d entries into %d", len(d), R))
	}
	w := len(d) / R
	n4 := 0
	if useLanes {
		n4 = R &^ 3
		if n4 > 0 {
			sumWindowLanes(g, d, n4, w)
			clearUpper()
		}
	}
	for r := n4; r < R; r++ {
		for n := range w {
			g[r] += d[n*R+r]
		}
	}
}

// lstmDeltaScalar is LSTMDelta's loop for the units j ≥ from.
func lstmDeltaScalar(da, dh, carry, gates, tc, cp []float64, from int) {
	H := len(dh)
	for j := from; j < H; j++ {
		i, f, g, o := gates[j], gates[H+j], gates[2*H+j], gates[3*H+j]
		tcj := tc[j]
		dc := dh[j]*o*(1-tcj*tcj) + carry[j]
		do := dh[j] * tcj
		carry[j] = dc * f
		da[j] = dc * g * i * (1 - i)
		da[H+j] = dc * cp[j] * f * (1 - f)
		da[2*H+j] = dc * i * (1 - g*g)
		da[3*H+j] = do * o * (1 - o)
	}
}
