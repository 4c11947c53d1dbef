//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// flatMaxM32 is the widest column (inputs m) whose traces StageTraceFold32
// advances as flat octets (stageTraceFold32Flat); wider columns take the
// row kernel (stageTraceFold32Lanes).
const flatMaxM32 = 32

// The lane patterns of a block's last eight entries (u_q with direct term
// hp, b_q with direct term 1): the gate of each lane, the lanes of hp, those
// of 1; and the lanes 4-7 of an octet in its lanes 0-3 and 4-7.
var (
	scalarGates32 = [8]uint32{0, 1, 2, 3, 0, 1, 2, 3}
	upperGates32  = [8]uint32{4, 5, 6, 7, 4, 5, 6, 7}
	lowOnes32     = [8]float32{1, 1, 1, 1, 0, 0, 0, 0}
	highOnes32    = [8]float32{0, 0, 0, 0, 1, 1, 1, 1}
)

// stageTraceFold32Flat is the lane path of StageTraceFold32 for narrow
// columns (2 ≤ m ≤ flatMaxM32), bitwise the row kernel's operations (but
// for the sign of zeros) in another order of entries: a block is taken as
// flat octets, not row by row. The 4m entries of the input rows form
// octets that may straddle two gates' rows; each lane gets its gate's
// coefficients by a permutation of the column's κ (TraceCoef.K: κ_i, κ_f,
// κ_g, 0, 0, 0, 0, D) by the lane's gate, and its direct term from x
// repeated four times (one copy per gate row), both laid out once per call
// for every column. When m is odd the input rows end in half an octet:
// the octet ending at 4m is computed from the old values before the
// others and stored after them. The block's last eight entries are one
// octet.
func stageTraceFold32Flat(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	m := len(x)
	n := 4 * m
	// x four times: octets of x (read past m within x's capacity, the
	// lanes past m overwritten by the next copy or past 4m, never read).
	var xs [4*flatMaxM32 + 8]float32
	px, pxs := base32(x), unsafe.Pointer(&xs)
	if cap(x) >= Padded32(m) {
		for q := range 4 {
			for i := 0; i < m; i += 8 {
				st32At(ld32At(px, i), pxs, q*m+i)
			}
		}
	} else {
		for q := range 4 {
			copy(xs[q*m:q*m+m], x)
		}
	}
	clearUpper() // the scalars below are converted with legacy SSE (doc.go)
	size := n + 8
	s := flatScalars32{d: float32(d), pxs: pxs, pg: unsafe.Pointer(unsafe.SliceData(flatGates32[m])), m: m}
	pk := unsafe.Pointer(unsafe.SliceData(k.K))
	for j := range hp {
		s.f, s.A, s.B, s.E = float32(f[j]), float32(k.A[j]), float32(k.B[j]), float32(k.E[j])
		s.c, s.hp = float32(c[j]), float32(hp[j])
		o := 4 * j * size
		ph, pc, pz, pkj := unsafe.Add(base32(ht), o), unsafe.Add(base32(ct), o), unsafe.Add(base32(z), o), unsafe.Add(pk, 64*j)
		if add {
			column32FlatAt(ph, pc, pz, pkj, &s)
		} else {
			column32FlatSetAt(ph, pc, pz, pkj, &s)
		}
	}
}

// flatGates32[m] holds the gate of each of the 4m entries of a block's
// input rows (entry e is in row e/m).
var flatGates32 = func() [][]uint32 {
	g := make([][]uint32, flatMaxM32+1)
	for m := 2; m <= flatMaxM32; m++ {
		g[m] = make([]uint32, 4*m)
		for e := range g[m] {
			g[m][e] = uint32(e / m)
		}
	}
	return g
}()

// flatScalars32 are the scalars of one column of stageTraceFold32Flat
// (float32) and the call's layout of direct terms and gates.
type flatScalars32 struct {
	f, A, B, E, c, hp, d float32
	pxs, pg              unsafe.Pointer // x four times, and each entry's gate, 4m entries
	m                    int
}

// column32FlatAt advances and folds one column's block at ph, pc, pz, its
// κ (eight float64) at pk.
//
//go:noinline
func column32FlatAt(ph, pc, pz, pk unsafe.Pointer, s *flatScalars32) {
	vf, vA, vB, vE := bc32(s.f), bc32(s.A), bc32(s.B), bc32(s.E)
	vd, vc := bc32(s.d), bc32(s.c)
	var kv f32x8
	kv = kv.SetLo(archsimd.LoadFloat64x4((*[4]float64)(pk)).ConvertToFloat32()).
		SetHi(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Add(pk, 32))).ConvertToFloat32())
	// κ of c per gate in lanes 0-3 (κ_i, κ_f, κ_g, 0), of h in kd (0, 0, 0, D).
	kd := kv.Permute(archsimd.LoadUint32x8(&upperGates32))
	pxs, pg := s.pxs, s.pg
	n := 4 * s.m
	n8 := n &^ 7
	var th, tc, tz f32x8
	if n8 < n { // the octet ending at 4m, from the old values
		i := n - 8
		g := archsimd.LoadUint32x8((*[8]uint32)(unsafe.Add(pg, 4*i)))
		xv := ld32At(pxs, i)
		h := ld32At(ph, i)
		tc = flush32(vf.MulAdd(ld32At(pc, i), vA.MulAdd(h, kv.Permute(g).Mul(xv))))
		th = flush32(vB.MulAdd(tc, vE.MulAdd(h, kd.Permute(g).Mul(xv))))
		tz = flush32(vd.MulAdd(ld32At(pz, i), vc.Mul(th)))
	}
	// Pointers advanced by an octet (addresses without index arithmetic),
	// the loaded values the destination of the fused operations (no copies
	// of the broadcast scalars): the same products and sums.
	qg, qx, qh, qc, qz := pg, pxs, ph, pc, pz
	for i := 0; i < n8; i += 8 {
		g := archsimd.LoadUint32x8((*[8]uint32)(qg))
		xv := ld32At(qx, 0)
		p, q := kv.Permute(g).Mul(xv), kd.Permute(g).Mul(xv)
		cn := flush32(ld32At(qc, 0).MulAdd(vf, ld32At(qh, 0).MulAdd(vA, p)))
		st32At(cn, qc, 0)
		hn := flush32(cn.MulAdd(vB, ld32At(qh, 0).MulAdd(vE, q)))
		st32At(hn, qh, 0)
		st32At(flush32(ld32At(qz, 0).MulAdd(vd, hn.Mul(vc))), qz, 0)
		qg, qx, qh, qc, qz = unsafe.Add(qg, 32), unsafe.Add(qx, 32), unsafe.Add(qh, 32), unsafe.Add(qc, 32), unsafe.Add(qz, 32)
	}
	if n8 < n {
		st32At(tc, pc, n-8)
		st32At(th, ph, n-8)
		st32At(tz, pz, n-8)
	}
	// u_q (direct term hp) and b_q (direct term 1).
	g := archsimd.LoadUint32x8(&scalarGates32)
	xv := bc32(s.hp).MulAdd(archsimd.LoadFloat32x8(&lowOnes32), archsimd.LoadFloat32x8(&highOnes32))
	h := ld32At(ph, n)
	cn := flush32(vf.MulAdd(ld32At(pc, n), vA.MulAdd(h, kv.Permute(g).Mul(xv))))
	st32At(cn, pc, n)
	hn := flush32(vB.MulAdd(cn, vE.MulAdd(h, kd.Permute(g).Mul(xv))))
	st32At(hn, ph, n)
	st32At(flush32(vd.MulAdd(ld32At(pz, n), vc.Mul(hn))), pz, n)
	clearUpper()
}

// column32FlatSetAt is column32FlatAt with z set to c·h', not folded: one column's block at ph, pc, pz, its
// κ (eight float64) at pk.
//
//go:noinline
func column32FlatSetAt(ph, pc, pz, pk unsafe.Pointer, s *flatScalars32) {
	vf, vA, vB, vE := bc32(s.f), bc32(s.A), bc32(s.B), bc32(s.E)
	vc := bc32(s.c)
	var kv f32x8
	kv = kv.SetLo(archsimd.LoadFloat64x4((*[4]float64)(pk)).ConvertToFloat32()).
		SetHi(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Add(pk, 32))).ConvertToFloat32())
	// κ of c per gate in lanes 0-3 (κ_i, κ_f, κ_g, 0), of h in kd (0, 0, 0, D).
	kd := kv.Permute(archsimd.LoadUint32x8(&upperGates32))
	pxs, pg := s.pxs, s.pg
	n := 4 * s.m
	n8 := n &^ 7
	var th, tc, tz f32x8
	if n8 < n { // the octet ending at 4m, from the old values
		i := n - 8
		g := archsimd.LoadUint32x8((*[8]uint32)(unsafe.Add(pg, 4*i)))
		xv := ld32At(pxs, i)
		h := ld32At(ph, i)
		tc = flush32(vf.MulAdd(ld32At(pc, i), vA.MulAdd(h, kv.Permute(g).Mul(xv))))
		th = flush32(vB.MulAdd(tc, vE.MulAdd(h, kd.Permute(g).Mul(xv))))
		tz = flush32(vc.Mul(th))
	}
	for i := 0; i < n8; i += 8 {
		g := archsimd.LoadUint32x8((*[8]uint32)(unsafe.Add(pg, 4*i)))
		xv := ld32At(pxs, i)
		h := ld32At(ph, i)
		cn := flush32(vf.MulAdd(ld32At(pc, i), vA.MulAdd(h, kv.Permute(g).Mul(xv))))
		st32At(cn, pc, i)
		hn := flush32(vB.MulAdd(cn, vE.MulAdd(h, kd.Permute(g).Mul(xv))))
		st32At(hn, ph, i)
		st32At(flush32(vc.Mul(hn)), pz, i)
	}
	if n8 < n {
		st32At(tc, pc, n-8)
		st32At(th, ph, n-8)
		st32At(tz, pz, n-8)
	}
	// u_q (direct term hp) and b_q (direct term 1).
	g := archsimd.LoadUint32x8(&scalarGates32)
	xv := bc32(s.hp).MulAdd(archsimd.LoadFloat32x8(&lowOnes32), archsimd.LoadFloat32x8(&highOnes32))
	h := ld32At(ph, n)
	cn := flush32(vf.MulAdd(ld32At(pc, n), vA.MulAdd(h, kv.Permute(g).Mul(xv))))
	st32At(cn, pc, n)
	hn := flush32(vB.MulAdd(cn, vE.MulAdd(h, kd.Permute(g).Mul(xv))))
	st32At(hn, ph, n)
	st32At(flush32(vc.Mul(hn)), pz, n)
	clearUpper()
}
