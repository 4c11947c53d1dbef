package lanes

import "fmt"

// The float32 kernels of T-BPTT's float32 engine (package backward,
// TBPTT32), one for each float64 kernel its float64 engine calls. The
// sums over the inputs (Dot4x32, OuterSum32) take eight lanes in the lane
// build, and so do the element-wise recursions at H = 4 (tbptt32_h4_simd.go)
// and σ and tanh at H a multiple of 4 (tbptt32_act_simd.go); elsewhere the
// element-wise recursions run in scalar float32. Each is checked against
// its float64 kernel in the tests, and the engine against the float64
// engine by package compare.

// Dot4x32 is Dot4 in float32:
//
//	a[q] += Σ_k w[q·m+k]·x[k]      q = 0..3, m = len(x)
//
// The scalar path adds the products in order k = 0, 1, ...; the lane path
// keeps eight partial sums per row (k mod 8) with fused multiply-adds and
// adds them at the end (at m mod 8 ≥ 4 folded into four before the last
// quad, dot4x32Quads), and at m = 4 adds each row's four products
// pairwise.
func Dot4x32(a *[4]float32, w, x []float32) {
	m := len(x)
	w = w[:4*m]
	if useLanes && m == 4 {
		dot4x32Rows4(a, w, x)
		clearUpper()
		return
	}
	if useLanes && m >= 8 {
		dot4x32Lanes(a, w, x)
		clearUpper()
		return
	}
	dot4Scalar(a, w, x)
}

// LSTMGates32 applies the gate nonlinearities to the 4H pre-activations g
// (gate order i, f, g, o) in place: σ to the blocks i, f and o, tanh to g.
// They are evaluated in float64 (Sigmoid, Tanh) on scratch (at least len(g)
// entries) and rounded to float32, so each is within half a float32 unit
// in the last place of the float64 value; in the lane build with H a
// multiple of 4 they are evaluated in float32 lanes (act32x8), within
// 4·2⁻²⁴ of the exact value relatively (TestTBPTT32Activations).
func LSTMGates32(g []float32, scratch []float64) {
	H := len(g) / 4
	if 4*H != len(g) || len(scratch) < len(g) {
		panic(fmt.Sprintf("lanes: LSTMGates32 of %d pre-activations with %d scratch", len(g), len(scratch)))
	}
	if useLanes && H%4 == 0 {
		lstmGates32Lanes(g)
		clearUpper()
		return
	}
	s := scratch[:len(g)]
	for i, v := range g {
		s[i] = float64(v)
	}
	Sigmoid(s[:2*H], s[:2*H])
	Tanh(s[2*H:3*H], s[2*H:3*H])
	Sigmoid(s[3*H:], s[3*H:])
	for i, v := range s {
		g[i] = float32(v)
	}
}

// LSTMTanh32 writes tanh(src[i]) into dst[i], evaluated in float64 (Tanh)
// on scratch (at least len(src) entries) and rounded to float32, or in the
// lane build with len(src) a multiple of 4 in float32 lanes as
// LSTMGates32.
func LSTMTanh32(dst, src []float32, scratch []float64) {
	if len(dst) < len(src) || len(scratch) < len(src) {
		panic(fmt.Sprintf("lanes: LSTMTanh32 of %d entries into %d with %d scratch", len(src), len(dst), len(scratch)))
	}
	if useLanes && len(src)%4 == 0 {
		lstmTanh32Lanes(dst, src)
		clearUpper()
		return
	}
	s := scratch[:len(src)]
	for i, v := range src {
		s[i] = float64(v)
	}
	Tanh(s, s)
	for i, v := range s {
		dst[i] = float32(v)
	}
}

// LSTMDelta32 is LSTMDelta in float32, the same operations in the same
// order.
func LSTMDelta32(da, dh, carry, gates, tc, cp []float32) {
	H := len(dh)
	if len(da) != 4*H || len(carry) != H || len(gates) != 4*H || len(tc) != H || len(cp) != H {
		panic(fmt.Sprintf("lanes: LSTMDelta32 of %d units with δa %d, carry %d, gates %d, tanh c %d, c_prev %d",
			H, len(da), len(carry), len(gates), len(tc), len(cp)))
	}
	for j := range H {
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

// AddMulT32 is AddMulT in float32: z[j] += Σ_r d[r]·W[r·n+j], the rows r
// in order. The lane path takes eight entries of z at a time (the last
// n mod 8 by partial loads) with fused multiply-adds.
func AddMulT32(z, w, d []float32) {
	n := len(z)
	w = w[:len(d)*n]
	if useLanes && n >= 1 {
		addMulT32Lanes(z, w, d)
		clearUpper()
		return
	}
	for r, dr := range d {
		for j, wj := range w[r*n : (r+1)*n] {
			z[j] += dr * wj
		}
	}
}

// LSTMBackward32 is LSTMBackward in float32: LSTMDelta32 and AddMulT32
// through the window, newest first; in the lane build at H = 4 the whole
// recursion in registers with other roundings (lstmBackward32H4). Only da
// and carry are results; dh and next are scratch.
func LSTMBackward32(da, dh, carry, next, whh []float32, gates, tc, cp [][]float32) {
	H, w := len(dh), len(gates)
	if len(da) < 4*H*w || len(carry) != H || len(next) != H || len(whh) != 4*H*H || len(tc) != w || len(cp) != w {
		panic(fmt.Sprintf("lanes: LSTMBackward32 of %d units over %d steps with δa %d, carry %d, next %d, W_hh %d, %d tanh c, %d c_prev",
			H, w, len(da), len(carry), len(next), len(whh), len(tc), len(cp)))
	}
	if useLanes && H == 4 && w >= 1 {
		lstmBackward32H4(da, dh, carry, whh, gates, tc, cp)
		clearUpper()
		return
	}
	clear(carry)
	for n := range w {
		LSTMDelta32(da[n*4*H:(n+1)*4*H], dh, carry, gates[n], tc[n], cp[n])
		if n < w-1 {
			clear(next)
			AddMulT32(next, whh, da[n*4*H:(n+1)*4*H])
			dh, next = next, dh
		}
	}
}

// SumWindow32 is SumWindow in float32: g[r] += Σ_n d[n·R+r], R = len(g),
// the n in order.
func SumWindow32(g, d []float32) {
	R := len(g)
	if R == 0 || len(d)%R != 0 {
		panic(fmt.Sprintf("lanes: SumWindow32 of %d entries into %d", len(d), R))
	}
	if useLanes && R >= 8 {
		sumWindow32Lanes(g, d)
		clearUpper()
		return
	}
	for n := range len(d) / R {
		for r, v := range d[n*R : (n+1)*R] {
			g[r] += v
		}
	}
}
