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
	w := len(x)
	if w == 0 {
		return
	}
	R := len(d) / w
	m := len(g) / max(R, 1)
	if R*w != len(d) || R*m != len(g) {
		panic(fmt.Sprintf("lanes: OuterSum of %d vectors with %d coefficients into %d entries", w, len(d), len(g)))
	}
	for _, xn := range x {
		if len(xn) != m {
			panic(fmt.Sprintf("lanes: OuterSum vector of length %d, want %d", len(xn), m))
		}
	}
	if useLanes && m >= 4 {
		outerSumLanes(g, d, x, R, m)
		clearUpper()
		return
	}
	for r := range R {
		row := g[r*m : (r+1)*m]
		for n, xn := range x {
			dr := d[n*R+r]
			for j, xj := range xn {
				row[j] += dr * xj
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
	for r, dr := range d {
		for j, wj := range w[r*n : (r+1)*n] {
			z[j] += dr * wj
		}
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
