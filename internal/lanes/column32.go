package lanes

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// The float32 kernels of the column networks (the opt-in float32 engine,
// docs/performance.md): the same formulas as Preact, TraceScalars,
// StageTrace, StageTraceFold, ScaleBlocks, ScaleAddBlocks and ScaleAdd with
// the parameters, the input copy, the traces and the eligibility trace in
// float32. Per-column scalars (the previous hidden state, the activations,
// the coefficients of the traces and of the fold) are passed in float64,
// as the float64 engine computes them, and rounded to float32 where a
// float32 kernel multiplies by them. The lane path takes eight float32
// lanes with fused multiply-adds; the scalar path computes a stored value
// in float64 from the float32 operands and rounds it once where the lane
// path stores it (the fold and RMSProp's second moments with the lane
// path's fused operation, fma32), so the two differ in the last bits.

// Padded32 is the length of a float32 input copy of m values for
// Preact32: m rounded up to a multiple of 8.
func Padded32(m int) int { return (m + 7) &^ 7 }

// Input32 writes x rounded to float32 into dst[:len(x)].
func Input32(dst []float32, x []float64) {
	if len(dst) < len(x) {
		panic(fmt.Sprintf("lanes: Input32 of %d values into %d entries", len(x), len(dst)))
	}
	if useLanes && len(x) >= 4 {
		input32Lanes(dst, x)
		clearUpper()
		return
	}
	for k, xk := range x {
		dst[k] = float32(xk)
	}
}

// Preact32 is Preact in float32: the pre-activations
//
//	a_q[j] = b_q + u_q·h[j] + Σ_k W_q[k]·x[k]      q = i, f, g, o
//
// of u = len(h) columns of m inputs, their blocks (arch.ColumnParams(m)
// entries each) and x in float32, h[j] rounded to float32, the sums in
// float32, written to ai..ao as float64. x must hold at least Padded32(m)
// entries (the lane path reads the last octet whole and masks the lanes
// beyond m). The lane path keeps eight float32 partial sums per gate (k mod
// 8) and adds their total to u_q·h + b_q; the scalar path adds the products
// (exact in float64) in order in float64 and rounds the sum to float32 before
// adding u_q·h + b_q: sequential float32 sums of a few hundred terms lose
// several times the bits of eight partial sums, and scalar float64 costs no
// more than scalar float32.
func Preact32(ai, af, ag, ao, h []float64, blocks, x []float32, m int) {
	u := len(h)
	size := arch.ColumnParams(m)
	if m < 1 || len(x) < Padded32(m) || len(blocks) < u*size || len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u {
		panic(fmt.Sprintf("lanes: Preact32 of %d columns of %d inputs: %d parameters, %d inputs", u, m, len(blocks), len(x)))
	}
	if useLanes {
		preact32Lanes(ai, af, ag, ao, h, blocks, x, m)
		clearUpper()
		return
	}
	x = x[:m]
	for j, hj := range h {
		p := blocks[j*size : (j+1)*size]
		w0, w1, w2, w3 := p[:m], p[m:2*m], p[2*m:3*m], p[3*m:4*m]
		h32 := float32(hj)
		var a0, a1, a2, a3 float64
		for k, xk := range x {
			xk := float64(xk)
			a0 += float64(w0[k]) * xk
			a1 += float64(w1[k]) * xk
			a2 += float64(w2[k]) * xk
			a3 += float64(w3[k]) * xk
		}
		r := func(q int, a float64) float64 {
			return float64(float32(a) + fma32(p[4*m+q], h32, p[4*m+4+q]))
		}
		ai[j], af[j], ag[j], ao[j] = r(0, a0), r(1, a1), r(2, a2), r(3, a3)
	}
}

// Stage32 is Preact32 followed by Cell32 (the float32 engine's Stage),
// with their values: a stage of four columns (CCN's) takes its
// pre-activations from the dot products to the activations in registers
// (the four columns' gate vectors transposed into one register per gate,
// as Stage does), other stages call the two kernels.
func Stage32(ai, af, ag, ao, hp, cp, c, tc, h []float64, blocks, x []float32, m int) {
	u := len(hp)
	if !useLanes || u != 4 {
		Preact32(ai, af, ag, ao, hp, blocks, x, m)
		Cell32(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	if m < 1 || len(x) < Padded32(m) || len(blocks) < u*arch.ColumnParams(m) || len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u ||
		len(cp) < u || len(c) < u || len(tc) < u || len(h) < u {
		panic(fmt.Sprintf("lanes: Stage32 of %d columns of %d inputs: %d parameters, %d inputs", u, m, len(blocks), len(x)))
	}
	stage32Four(ai, af, ag, ao, hp, cp, c, tc, h, blocks, x, m)
	clearUpper()
}

// Cell32 is Cell for the float32 engine, whose pre-activations are
// float32 sums (Preact32): on a CPU with eight float64 lanes (AVX-512) a
// stage of u > 4 columns takes eight columns per instruction, the last
// octet with masked loads and stores (Columnar 7 in one octet), σ and tanh
// in eight float32 lanes (one exponential and one division per lane, with
// Cephes's expf and tanhf, each within 4·2⁻²⁴ of its exact value, relative,
// or 2⁻¹²⁶ where σ underflows) from the pre-activations rounded to float32,
//
//	c = f·cp + i·g (float64)    tc = tanh(float32(c))    h = o·tc (float64)
//
// with the activations widened to float64 exactly; elsewhere (and for a
// stage that fits one quad) it is Cell.
func Cell32(ai, af, ag, ao, cp, c, tc, h []float64) {
	u := len(cp)
	if !eightLanes32() || u <= 4 {
		Cell(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	if len(ai) < u || len(af) < u || len(ag) < u || len(ao) < u || len(c) < u || len(tc) < u || len(h) < u {
		panic(fmt.Sprintf("lanes: Cell32 of %d columns with gates %d %d %d %d, state %d %d %d",
			u, len(ai), len(af), len(ag), len(ao), len(c), len(tc), len(h)))
	}
	cell32Lanes(ai[:u], af[:u], ag[:u], ao[:u], cp, c[:u], tc[:u], h[:u])
	clearUpper()
}

// Normalize32 is Normalize for the float32 engine, bitwise Normalize's
// values: on a CPU with eight float64 lanes (AVX-512) eight values per
// instruction, the last octet with masked loads and stores (Columnar 7's
// features in one octet instead of a quad and three scalar square roots
// and divisions); elsewhere it is Normalize.
func Normalize32(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	if !eightLanes32() || len(h) < 5 {
		Normalize(out, h, mean, variance, scale, beta, oneMinus, eps)
		return
	}
	n := len(h)
	if len(out) < n || len(mean) < n || len(variance) < n || len(scale) < n {
		panic(fmt.Sprintf("lanes: Normalize32 of %d values into %d, statistics %d %d %d", n, len(out), len(mean), len(variance), len(scale)))
	}
	normalize32Lanes(out[:n], h, mean[:n], variance[:n], scale[:n], beta, oneMinus, eps)
	clearUpper()
}

// TraceScalars32 is TraceScalars with the recurrent weights u_q read from
// float32 blocks (converted exactly to float64): the same float64
// operations, so its scalars are those of TraceScalars on the blocks'
// values (the lane path: four columns per instruction, as TraceScalars',
// its κ stored as whole registers, which the trace kernel loads).
func TraceScalars32(k TraceCoef, i, f, g, o, cp, tc []float64, blocks []float32, m int) {
	u := len(cp)
	size := arch.ColumnParams(m)
	if len(i) < u || len(f) < u || len(g) < u || len(o) < u || len(tc) < u || len(blocks) < u*size {
		panic(fmt.Sprintf("lanes: TraceScalars32 of %d columns of %d inputs: %d parameters, activations %d %d %d %d %d",
			u, m, len(blocks), len(i), len(f), len(g), len(o), len(tc)))
	}
	k.check("TraceScalars32", u)
	if useLanes {
		traceScalars32Lanes(k, i, f, g, o, cp, tc, blocks, m)
		clearUpper()
		return
	}
	for j, cpj := range cp {
		uq := blocks[j*size+4*m : j*size+4*m+4]
		ij, fj, gj, oj, tj := i[j], f[j], g[j], o[j], tc[j]
		si, sf, sg, so := ij*(1-ij), fj*(1-fj), 1-gj*gj, oj*(1-oj)
		ki, kf, kg := gj*si, cpj*sf, ij*sg
		k.A[j] = kf*float64(uq[arch.GateF]) + kg*float64(uq[arch.GateG]) + ki*float64(uq[arch.GateI])
		k.B[j] = oj * (1 - tj*tj)
		D := tj * so
		k.E[j] = D * float64(uq[arch.GateO])
		kj := k.K[8*j : 8*j+8]
		kj[0], kj[1], kj[2], kj[3] = ki, kf, kg, 0
		kj[4], kj[5], kj[6], kj[7] = 0, 0, 0, D
	}
}

// TinyTrace32 is the magnitude below which the float32 engine stores an
// entry of its RTRL traces (∂h/∂θ, ∂c/∂θ) and of its eligibility trace as
// 0: StageTrace32, StageTraceFold32, ScaleBlocks32, ScaleAddBlocks32,
// ScaleAdd32, ScaleAddSame32 and RMSPropFold32's fold flush what they store.
// An entry whose inputs stay 0 decays through float32's subnormals (below
// 2⁻¹²⁶) and, rounded on their grid, can stay there for good (k·f rounds
// back to k); each subnormal operand costs an Intel core a microcode
// assist, and a float32 CCN 16 on trace patterning ran 3 times slower than
// float64 for it. 2⁻¹⁰⁰ rather than 2⁻¹²⁶: an entry above it times any
// coefficient above 2⁻²⁶ is still normal, so the next step's products do
// not underflow either. An entry that small is 2⁻⁷⁷ of float32's ε below
// any gradient entry of 1: far inside the float32 engine's tolerance
// against the float64 one (compare.Float32Tolerance).
const TinyTrace32 = 0x1p-100

// flushTiny32 is x, or 0 where |x| < TinyTrace32 (NaN is kept).
func flushTiny32(x float32) float32 {
	if x < TinyTrace32 && x > -TinyTrace32 {
		return 0
	}
	return x
}

// StageTrace32 is StageTrace in float32: the traces ht = ∂h/∂θ and ct =
// ∂c/∂θ of a stage's u = len(hp) columns of m = len(x) inputs advance by
// one step,
//
//	c' = f·ct + A·ht + κ_q·d      ht' = B·c' + E·ht + [q = o]·D·d
//
// with every per-column scalar rounded to float32 and entries below
// TinyTrace32 stored as 0. It runs the scalar loop
// in both builds (the engine folds its traces with StageTraceFold32; this
// is the rarer step whose gradient was not asked for).
func StageTrace32(ht, ct, x []float32, f, hp []float64, k TraceCoef) {
	checkStageTrace32("StageTrace32", ht, ct, x, f, hp, k)
	stageTrace32Scalar(ht, ct, x, f, hp, k, nil, 0, nil, false)
}

// StageTraceFold32 is StageTraceFold in float32: StageTrace32, and the new
// traces folded into z as they are computed,
//
//	z ← d·z + c[j]·ht'   if add,      z ← c[j]·ht'   otherwise,
//
// with d and c[j] rounded to float32. The lane path (m ≥ 2) reads each
// trace once: as flat octets of each column's block for m ≤ 32
// (stageTraceFold32Flat), row by row above.
func StageTraceFold32(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	u, m := len(hp), len(x)
	if len(z) != u*arch.ColumnParams(m) || len(c) < u {
		panic(fmt.Sprintf("lanes: StageTraceFold32 of %d columns of %d inputs into %d entries with %d coefficients",
			u, m, len(z), len(c)))
	}
	checkStageTrace32("StageTraceFold32", ht, ct, x, f, hp, k)
	if useLanes && m >= 2 && m <= flatMaxM32 {
		stageTraceFold32Flat(ht, ct, x, f, hp, k, z, d, c, add)
		clearUpper()
		return
	}
	if useLanes && m >= 8 {
		stageTraceFold32Lanes(ht, ct, x, f, hp, k, z, d, c, add)
		clearUpper()
		return
	}
	stageTrace32Scalar(ht, ct, x, f, hp, k, z, d, c, add)
}

func checkStageTrace32(name string, ht, ct, x []float32, f, hp []float64, k TraceCoef) {
	u, m := len(hp), len(x)
	size := arch.ColumnParams(m)
	if m < 1 || len(ht) != u*size || len(ct) != u*size || len(f) < u {
		panic(fmt.Sprintf("lanes: %s of %d columns of %d inputs with traces of length %d and %d, f %d",
			name, u, m, len(ht), len(ct), len(f)))
	}
	k.check(name, u)
}

// stageTrace32Scalar is the scalar path of StageTrace32 (z nil) and of
// StageTraceFold32.
func stageTrace32Scalar(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	m := len(x)
	size := arch.ColumnParams(m)
	d32 := float32(d)
	for j, hpj := range hp {
		kj := k.K[8*j : 8*j+8]
		vf, A, B, E := float32(f[j]), float32(k.A[j]), float32(k.B[j]), float32(k.E[j])
		D, h := float32(kj[7]), float32(hpj)
		kq := [4]float32{float32(kj[0]), float32(kj[1]), float32(kj[2]), 0}
		dq := [4]float32{0, 0, 0, D}
		hb, cb := ht[j*size:(j+1)*size], ct[j*size:(j+1)*size]
		var zb []float32
		var cj float32
		if z != nil {
			zb, cj = z[j*size:(j+1)*size], float32(c[j])
		}
		s := traceRow32{f: float64(vf), A: float64(A), B: float64(B), E: float64(E), d: float64(d32), c: float64(cj),
			zb: zb != nil, add: add}
		for q := range 4 {
			s.kq, s.dq = float64(kq[q]), float64(dq[q])
			r := q * m
			var zr []float32
			if zb != nil {
				zr = zb[r : r+m]
			}
			s.row(hb[r:r+m], cb[r:r+m], zr, x)
		}
		// u_q (direct term hp) and b_q (direct term 1), one entry each.
		for q := range 4 {
			s.kq, s.dq = float64(kq[q]), float64(dq[q])
			for _, e := range [2]struct {
				i  int
				dt float32
			}{{4*m + q, h}, {4*m + 4 + q, 1}} {
				var zr []float32
				if zb != nil {
					zr = zb[e.i : e.i+1]
				}
				s.row(hb[e.i:e.i+1], cb[e.i:e.i+1], zr, []float32{e.dt})
			}
		}
	}
}

// traceRow32 holds one row's scalars for stageTrace32Scalar, the float32
// scalars in float64.
type traceRow32 struct {
	f, A, B, E, kq, dq, d, c float64
	zb, add                  bool
}

// row advances the entries of a row with direct terms x and folds them
// into zb if s.zb. It computes each value in float64 from the float32
// operands and rounds it to float32 where the lane path stores it (c', then
// h' from the rounded c', then z): the lane path's roundings of the inner
// products and sums are not made, which keeps the scalar loop free of
// conversions in its chain of dependent operations (in fused float32 it
// ran 4.5 times slower than the float64 kernel).
func (s *traceRow32) row(hb, cb, zb, x []float32) {
	hb, cb = hb[:len(x)], cb[:len(x)]
	for i, dt := range x {
		hOld, t := float64(hb[i]), float64(dt)
		cNew := flushTiny32(float32(s.f*float64(cb[i]) + (s.A*hOld + s.kq*t)))
		cb[i] = cNew
		hNew := flushTiny32(float32(s.B*float64(cNew) + (s.E*hOld + s.dq*t)))
		hb[i] = hNew
		switch {
		case !s.zb:
		case s.add:
			zb[i] = flushTiny32(float32(s.d*float64(zb[i]) + s.c*float64(hNew)))
		default:
			zb[i] = flushTiny32(float32(s.c * float64(hNew)))
		}
	}
}

// ScaleBlocks32 is ScaleBlocks in float32: z[j·n+i] = c[j]·t[j·n+i] for
// len(c) blocks of n = len(t)/len(c) entries, c[j] rounded to float32,
// entries below TinyTrace32 stored as 0.
func ScaleBlocks32(z []float32, c []float64, t []float32) {
	n := checkBlocks32("ScaleBlocks32", z, c, t)
	for j, cj := range c {
		c32 := float32(cj)
		for i, ti := range t[j*n : (j+1)*n] {
			z[j*n+i] = flushTiny32(c32 * ti)
		}
	}
}

// ScaleAddBlocks32 is ScaleAddBlocks in float32: z[j·n+i] ← d·z[j·n+i] +
// c[j]·t[j·n+i], d and c[j] rounded to float32, entries below TinyTrace32
// stored as 0.
func ScaleAddBlocks32(z []float32, d float64, c []float64, t []float32) {
	n := checkBlocks32("ScaleAddBlocks32", z, c, t)
	d32 := float32(d)
	for j, cj := range c {
		c32 := float32(cj)
		for i, ti := range t[j*n : (j+1)*n] {
			z[j*n+i] = flushTiny32(d32*z[j*n+i] + c32*ti)
		}
	}
}

func checkBlocks32(name string, z []float32, c []float64, t []float32) int {
	if len(c) == 0 {
		if len(z) != 0 {
			panic(fmt.Sprintf("lanes: %s of %d entries in no blocks", name, len(z)))
		}
		return 0
	}
	if len(t)%len(c) != 0 || len(z) != len(t) {
		panic(fmt.Sprintf("lanes: %s of %d entries into %d with %d coefficients", name, len(t), len(z), len(c)))
	}
	return len(t) / len(c)
}

// ScaleAdd32 sets z ← d·z + c·t element-wise in float32 (len(t) ≥ len(z)),
// with d, c and t rounded to float32, entries below TinyTrace32 stored as
// 0: the float32 engine's fold of float64 values (the head's features) into
// its eligibility trace.
func ScaleAdd32(z []float32, d, c float64, t []float64) {
	t = t[:len(z)]
	d32, c32 := float32(d), float32(c)
	for i, ti := range t {
		z[i] = flushTiny32(d32*z[i] + c32*float32(ti))
	}
}

// ScaleAddSame32 sets z ← d·z + c·t element-wise in float32 (len(t) ≥
// len(z)), d and c rounded to float32, as fma32(d, z, c·t), entries below
// TinyTrace32 stored as 0.
func ScaleAddSame32(z []float32, d, c float64, t []float32) {
	t = t[:len(z)]
	d32, c32 := float32(d), float32(c)
	for i, ti := range t {
		z[i] = flushTiny32(fma32(d32, z[i], c32*ti))
	}
}

// fma32 is a·b + c in float32 with one rounding of the product's sum in
// float64 and one to float32 (the product of two float32 values is exact
// in float64): the fused multiply-add of the lane path but for a double
// rounding in rare ties.
func fma32(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}
