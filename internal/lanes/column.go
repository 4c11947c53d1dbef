package lanes

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// The kernels of this file run the columns of one stage of a network (paper
// §3.1; package forward documents the LSTM column and its RTRL traces). A
// stage's u columns read the same input x of length m, and their parameter
// blocks (arch.ColumnParams(m) = 4m+8 each, in the column layout of package
// arch) lie one after the other. Per-column values are passed as slices of
// length u, one entry per column, so that the lane path can hold four
// columns in the lanes of one register.

// Preact writes the pre-activations of the gates of every column j of a
// stage (u = len(h) columns, blocks of u·(4m+8) parameters, m = len(x)):
//
//	a_q[j] = b_q + u_q·h[j] + Σ_k W_q[k]·x[k]      q = i, f, g, o
//
// into ai[j], af[j], ag[j], ao[j]; h holds the columns' previous hidden
// states. The scalar path adds the products in order k = 0, 1, ... to
// b_q + u_q·h; the lane path keeps four partial sums per gate (k mod 4) with
// fused multiply-adds and adds their total to b_q + u_q·h, so the two paths
// differ in the last bits.
func Preact(ai, af, ag, ao, h, blocks, x []float64) {
	u, m := len(h), len(x)
	size := arch.ColumnParams(m)
	if len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u || len(blocks) < u*size || m == 0 {
		panic(fmt.Sprintf("lanes: Preact with %d columns of %d inputs: %d parameters, gates %d %d %d %d",
			u, m, len(blocks), len(ai), len(af), len(ag), len(ao)))
	}
	if useLanes {
		preactLanes(ai, af, ag, ao, h, blocks, x)
		clearUpper()
		return
	}
	for j, hj := range h {
		p := blocks[j*size : (j+1)*size]
		w0, w1, w2, w3 := p[:m], p[m:2*m], p[2*m:3*m], p[3*m:4*m]
		a0 := p[4*m+4] + p[4*m]*hj
		a1 := p[4*m+5] + p[4*m+1]*hj
		a2 := p[4*m+6] + p[4*m+2]*hj
		a3 := p[4*m+7] + p[4*m+3]*hj
		for k, xk := range x {
			a0 += w0[k] * xk
			a1 += w1[k] * xk
			a2 += w2[k] * xk
			a3 += w3[k] * xk
		}
		ai[j], af[j], ag[j], ao[j] = a0, a1, a2, a3
	}
}

// Cell turns the pre-activations of a stage's columns into activations in
// place and advances the columns' state, for every column j < u = len(cp):
//
//	i = σ(a_i)   f = σ(a_f)   g = tanh(a_g)   o = σ(a_o)
//	c[j] = f·cp[j] + i·g      tc[j] = tanh(c[j])      h[j] = o·tc[j]
//
// with σ(a) = 1/(1+e^(−a)). The scalar path uses math.Exp and math.Tanh; the
// lane path the lane functions of Sigmoid and Tanh (a few ulps from math).
func Cell(ai, af, ag, ao, cp, c, tc, h []float64) {
	u := len(cp)
	if len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u || len(c) < u || len(tc) < u || len(h) < u {
		panic(fmt.Sprintf("lanes: Cell of %d columns with gates %d %d %d %d, state %d %d %d",
			u, len(ai), len(af), len(ag), len(ao), len(c), len(tc), len(h)))
	}
	if useLanes {
		cellLanes(ai, af, ag, ao, cp, c, tc, h)
		clearUpper()
		return
	}
	for j, cpj := range cp {
		i := 1 / (1 + math.Exp(-ai[j]))
		f := 1 / (1 + math.Exp(-af[j]))
		g := math.Tanh(ag[j])
		o := 1 / (1 + math.Exp(-ao[j]))
		ai[j], af[j], ag[j], ao[j] = i, f, g, o
		cj := f*cpj + i*g
		t := math.Tanh(cj)
		c[j], tc[j], h[j] = cj, t, o*t
	}
}

// Stage is Preact followed by Cell: the forward step of a stage's u =
// len(hp) columns, from their previous states hp, cp to the activations (in
// ai..ao), c, tc and h. In the lane path the pre-activations stay in
// registers for the activations: a column's four gates in one register,
// four columns' registers transposed into one register per gate.
func Stage(ai, af, ag, ao, hp, cp, c, tc, h, blocks, x []float64) {
	u := len(hp)
	if !useLanes || u == 0 || len(x) == 0 {
		Preact(ai, af, ag, ao, hp, blocks, x)
		Cell(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	if len(cp) != u || len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u || len(c) < u || len(tc) < u ||
		len(h) < u || len(blocks) < u*arch.ColumnParams(len(x)) {
		panic(fmt.Sprintf("lanes: Stage of %d columns of %d inputs: %d parameters, gates %d %d %d %d, state %d %d %d %d",
			u, len(x), len(blocks), len(ai), len(af), len(ag), len(ao), len(cp), len(c), len(tc), len(h)))
	}
	stageLanes(ai, af, ag, ao, hp, cp, c, tc, h, blocks, x)
	clearUpper()
}

// ColumnTrace advances the RTRL traces ht = ∂h/∂θ and ct = ∂c/∂θ of one
// column's whole parameter block (length 4m+8, m = len(x)) by one step,
// given the step's scalars f, A, B, E, D, κ_i, κ_f, κ_g (package forward
// derives them), its input x and previous hidden state hp. A parameter of gate
// q with direct term d (x[k] for W_q[k], hp for u_q, 1 for b_q) is updated as
//
//	c' = f·ct + A·ht + κ_q·d              (κ_o = 0)
//	ht = B·c' + E·ht + [q = o]·D·d        ct = c'
//
// with ht on the right the old value: 8 operations per weight and recurrent
// scalar and 7 per bias. Both paths do these operations in this order (the
// lane path adds a zero term where the formula has none) and agree bitwise
// up to the sign of zero.
func ColumnTrace(ht, ct, x []float64, f, A, B, E, D, ki, kf, kg, hp float64) {
	m := len(x)
	size := arch.ColumnParams(m)
	if len(ht) != size || len(ct) != size {
		panic(fmt.Sprintf("lanes: ColumnTrace of %d inputs with traces of length %d and %d, want %d", m, len(ht), len(ct), size))
	}
	if useLanes {
		columnTraceLanes(ht, ct, x, f, A, B, E, D, ki, kf, kg, hp)
		clearUpper()
		return
	}
	traceScalar(ht[0:m], ct[0:m], x, f, A, B, E, ki)
	traceScalar(ht[m:2*m], ct[m:2*m], x, f, A, B, E, kf)
	traceScalar(ht[2*m:3*m], ct[2*m:3*m], x, f, A, B, E, kg)
	traceOutScalar(ht[3*m:4*m], ct[3*m:4*m], x, f, A, B, E, D)

	// u_q: direct term hp.
	uh, uc := ht[4*m:4*m+4], ct[4*m:4*m+4]
	for q, kq := range [3]float64{ki, kf, kg} {
		hOld := uh[q]
		cNew := f*uc[q] + A*hOld + kq*hp
		uc[q] = cNew
		uh[q] = B*cNew + E*hOld
	}
	hOld := uh[3]
	cNew := f*uc[3] + A*hOld
	uc[3] = cNew
	uh[3] = B*cNew + E*hOld + D*hp

	// b_q: direct term 1.
	bh, bc := ht[4*m+4:4*m+8], ct[4*m+4:4*m+8]
	for q, kq := range [3]float64{ki, kf, kg} {
		hOld := bh[q]
		cNew := f*bc[q] + A*hOld + kq
		bc[q] = cNew
		bh[q] = B*cNew + E*hOld
	}
	hOld = bh[3]
	cNew = f*bc[3] + A*hOld
	bc[3] = cNew
	bh[3] = B*cNew + E*hOld + D
}
