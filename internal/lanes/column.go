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
	columnTraceScalar(ht, ct, x, f, A, B, E, D, ki, kf, kg, hp)
}

// columnTraceScalar is the scalar path of ColumnTrace.
func columnTraceScalar(ht, ct, x []float64, f, A, B, E, D, ki, kf, kg, hp float64) {
	m := len(x)
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

// TraceCoef holds the per-step scalars of the RTRL traces of a stage's
// columns (ColumnTrace's A, B, E, κ_q and D): A, B and E one entry per
// column, and K eight entries per column, the direct terms' coefficients of
// c and of h per gate (i, f, g, o),
//
//	K[8j:8j+8] = κ_i, κ_f, κ_g, 0, 0, 0, 0, D
//
// so that the lane path loads the recurrent scalars' and biases' four
// coefficients of c, and of h, as one vector each.
type TraceCoef struct {
	A, B, E []float64
	K       []float64
}

// NewTraceCoef returns a TraceCoef for up to n columns.
func NewTraceCoef(n int) TraceCoef {
	return TraceCoef{A: make([]float64, n), B: make([]float64, n), E: make([]float64, n), K: make([]float64, 8*n)}
}

// check panics if k has room for fewer than u columns.
func (k TraceCoef) check(name string, u int) {
	if len(k.A) < u || len(k.B) < u || len(k.E) < u || len(k.K) < 8*u {
		panic(fmt.Sprintf("lanes: %s of %d columns with coefficients for %d %d %d %d", name, u,
			len(k.A), len(k.B), len(k.E), len(k.K)/8))
	}
}

// TraceScalars derives the per-step scalars of the traces of a stage's
// u = len(cp) columns into k: from column j's activations i[j], f[j], g[j],
// o[j] (Cell's output), its previous cell state cp[j], tanh(c) tc[j] and
// its recurrent weights u_q (block j of blocks, at 4m..4m+3 in the column
// layout of package arch),
//
//	κ_i = g·i(1−i)    κ_f = cp·f(1−f)    κ_g = i·(1−g²)
//	A = κ_f·u_f + κ_g·u_g + κ_i·u_i    B = o·(1−tc²)    D = tc·o(1−o)    E = D·u_o
//
// 21 operations per column. Both paths do them in this order and agree
// bitwise (the lane path takes four columns per instruction).
func TraceScalars(k TraceCoef, i, f, g, o, cp, tc, blocks []float64, m int) {
	u := len(cp)
	size := arch.ColumnParams(m)
	if len(i) < u || len(f) < u || len(g) < u || len(o) < u || len(tc) < u || len(blocks) < u*size {
		panic(fmt.Sprintf("lanes: TraceScalars of %d columns of %d inputs: %d parameters, activations %d %d %d %d %d",
			u, m, len(blocks), len(i), len(f), len(g), len(o), len(tc)))
	}
	k.check("TraceScalars", u)
	if useLanes {
		traceScalarsLanes(k, i, f, g, o, cp, tc, blocks, m)
		clearUpper()
		return
	}
	// Resliced to u entries, so that the loop indexes without bounds checks.
	i, f, g, o, tc = i[:u], f[:u], g[:u], o[:u], tc[:u]
	kA, kB, kE := k.A[:u], k.B[:u], k.E[:u]
	for j, cpj := range cp {
		uq := blocks[j*size+4*m : j*size+4*m+4]
		ij, fj, gj, oj, tj := i[j], f[j], g[j], o[j], tc[j]
		si, sf, sg, so := ij*(1-ij), fj*(1-fj), 1-gj*gj, oj*(1-oj)
		ki, kf, kg := gj*si, cpj*sf, ij*sg
		kA[j] = kf*uq[arch.GateF] + kg*uq[arch.GateG] + ki*uq[arch.GateI]
		kB[j] = oj * (1 - tj*tj)
		D := tj * so
		kE[j] = D * uq[arch.GateO]
		kj := k.K[8*j : 8*j+8]
		kj[0], kj[1], kj[2], kj[3] = ki, kf, kg, 0
		kj[4], kj[5], kj[6], kj[7] = 0, 0, 0, D
	}
}

// StageTrace advances the traces of a stage's u = len(hp) columns, whose
// blocks (4m+8 entries, m = len(x)) lie one after the other in ht and ct:
// ColumnTrace of block j with f[j], the scalars of column j in k and hp[j],
// in one call. Both paths agree bitwise with ColumnTrace.
func StageTrace(ht, ct, x, f, hp []float64, k TraceCoef) {
	checkStageTrace("StageTrace", ht, ct, x, f, hp, k)
	size := arch.ColumnParams(len(x))
	if useLanes {
		stageTraceLanes(ht, ct, x, f, hp, k)
		clearUpper()
		return
	}
	f, kA, kB, kE := f[:len(hp)], k.A[:len(hp)], k.B[:len(hp)], k.E[:len(hp)]
	for j, hpj := range hp {
		kj := k.K[8*j : 8*j+8]
		columnTraceScalar(ht[j*size:(j+1)*size], ct[j*size:(j+1)*size], x,
			f[j], kA[j], kB[j], kE[j], kj[7], kj[0], kj[1], kj[2], hpj)
	}
}

// checkStageTrace panics if the lengths of StageTrace's arguments do not
// fit.
func checkStageTrace(name string, ht, ct, x, f, hp []float64, k TraceCoef) {
	u, m := len(hp), len(x)
	size := arch.ColumnParams(m)
	if len(ht) != u*size || len(ct) != u*size || len(f) < u {
		panic(fmt.Sprintf("lanes: %s of %d columns of %d inputs with traces of length %d and %d, f %d",
			name, u, m, len(ht), len(ct), len(f)))
	}
	k.check(name, u)
}

// StageTraceFold is StageTrace followed by the fold of the new traces ht
// into z (blocks laid out like the traces' blocks, a coefficient c[j] per
// column): ScaleAddBlocks(z, d, c, ht) if add, else ScaleBlocks(z, c, ht),
// bitwise, in one pass over the traces in the lane path (each trace read
// once per step).
func StageTraceFold(ht, ct, x, f, hp []float64, k TraceCoef, z []float64, d float64, c []float64, add bool) {
	u, m := len(hp), len(x)
	if len(z) != u*arch.ColumnParams(m) || len(c) != u {
		panic(fmt.Sprintf("lanes: StageTraceFold of %d columns of %d inputs into %d entries with %d coefficients",
			u, m, len(z), len(c)))
	}
	if !useLanes {
		StageTrace(ht, ct, x, f, hp, k)
		if add {
			ScaleAddBlocks(z, d, c, ht)
			return
		}
		ScaleBlocks(z, c, ht)
		return
	}
	checkStageTrace("StageTraceFold", ht, ct, x, f, hp, k)
	stageTraceFoldLanes(ht, ct, x, f, hp, k, z, d, c, add)
	clearUpper()
}
