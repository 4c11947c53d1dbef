//go:build goexperiment.simd && amd64

package lanes

import (
	"math"
	"simd/archsimd"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
)

type f32x8 = archsimd.Float32x8

func bc32(x float32) f32x8 { return archsimd.BroadcastFloat32x8(x) }

// bc32of is float32(x) in eight lanes for x in four, the rounding to float32
// done in lanes (as float32(x) rounds): a scalar conversion after vector code
// is a legacy-SSE CVTSD2SS (doc.go).
func bc32of(x f64x4) f32x8 { return x.ConvertToFloat32().Broadcast1To8() }

// ld32At loads the float32s p[i:i+8]; st32At stores v there. The caller
// guarantees i+8 ≤ len.
func ld32At(p unsafe.Pointer, i int) f32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, 4*i)))
}

func st32At(v f32x8, p unsafe.Pointer, i int) { v.Store((*[8]float32)(unsafe.Add(p, 4*i))) }

func base32(s []float32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// tinyBits32 is TinyTrace32's bits in eight lanes, absBits32 the mask of a
// float32's magnitude.
var (
	tinyBits32 = splatInt32(int32(math.Float32bits(TinyTrace32)))
	absBits32  = splatInt32(0x7fffffff)
)

func splatInt32(x int32) [8]int32 { return [8]int32{x, x, x, x, x, x, x, x} }

// flush32 is v with the lanes whose magnitude is below TinyTrace32 zeroed
// (flushTiny32 in eight lanes; NaN lanes are kept): the magnitude's bits
// compared as integers, which orders them as the values.
func flush32(v f32x8) f32x8 {
	mag := v.AsInt32x8().And(archsimd.LoadInt32x8(&absBits32))
	return f32x8{}.Merge(v, mag.Less(archsimd.LoadInt32x8(&tinyBits32)))
}

// input32Lanes is the lane path of Input32 (len(x) ≥ 4).
func input32Lanes(dst []float32, x []float64) {
	m := len(x)
	n4 := m &^ 3
	px, pd := unsafe.Pointer(unsafe.SliceData(x)), base32(dst)
	for k := 0; k < n4; k += 4 {
		archsimd.LoadFloat64x4((*[4]float64)(unsafe.Add(px, 8*k))).ConvertToFloat32().
			Store((*[4]float32)(unsafe.Add(pd, 4*k)))
	}
	if n4 < m { // in lanes: scalar conversions after vector code are legacy SSE (doc.go)
		archsimd.LoadFloat64x4SlicePart(x[n4:]).ConvertToFloat32().StoreSlicePart(dst[n4:m])
	}
}

// preact32Lanes is the lane path of Preact32.
func preact32Lanes(ai, af, ag, ao, h []float64, blocks, x []float32, m int) {
	var ps preact32Ptrs
	ps.i, ps.f, ps.g, ps.o = base(ai), base(af), base(ag), base(ao)
	ps.h, ps.b, ps.x = base(h), base32(blocks), base32(x)
	preact32Cols(&ps, m, len(h))
}

// preact32Ptrs are the slices of a Preact32 call.
type preact32Ptrs struct{ i, f, g, o, h, b, x unsafe.Pointer }

// preact32Cols computes the pre-activations of u columns: for each
// column, eight partial sums per gate of the products of its rows with x (its masked last octet of x loaded
// once for all columns), plus u_q·h + b_q, in one function so that the
// columns take no call each.
//
//go:noinline
func preact32Cols(ps *preact32Ptrs, m, u int) {
	size := arch.ColumnParams(m)
	px := ps.x
	m8 := m &^ 7
	xt := lastOctet32(px, m, m8)
	// The conversions to float32 and back in lanes and the gates' bits
	// moved as integers: scalar float64 code between the vector code is
	// legacy SSE (doc.go). Both conversions round as the scalar ones.
	for j := range u {
		h := bc(*at(ps.h, j)).ConvertToFloat32()
		a := gatePreacts32(unsafe.Add(ps.b, 4*j*size), px, xt, m, m8, h).ConvertToFloat64().AsUint64x4()
		lo, hi := a.GetLo(), a.GetHi()
		*bitsAt(ps.i, j), *bitsAt(ps.f, j) = lo.GetElem(0), lo.GetElem(1)
		*bitsAt(ps.g, j), *bitsAt(ps.o, j) = hi.GetElem(0), hi.GetElem(1)
	}
	clearUpper()
}

// bitsAt is the address of p's float64 entry i read as its bits.
func bitsAt(p unsafe.Pointer, i int) *uint64 { return (*uint64)(unsafe.Add(p, 8*i)) }

// laneIndex32i holds the lane numbers as integers, compared with an integer
// broadcast: an int converted to float32 is a legacy-SSE CVTSI2SS (doc.go).
var laneIndex32i = [8]int32{0, 1, 2, 3, 4, 5, 6, 7}

// colScalars32 are one column's per-step scalars of StageTraceFold32 in
// float32, with the direct terms of the last 8 entries of its block (u_q,
// direct term hp; b_q, direct term 1) multiplied out per lane: kc the terms
// of c (κ_q·d, 0 for gate o), kh those of h (D·d for gate o, else 0).
type colScalars32 struct {
	f, A, B, E, D, ki, kf, kg, c, d float32
	kc, kh                          [8]float32
}

// stageTraceFold32Lanes is the lane path of StageTraceFold32 (m ≥ 8). A
// row's last m mod 8 entries are those of the octet ending at the row's
// end, computed from the old values before the row's other octets and
// stored after them (no scalar tail).
func stageTraceFold32Lanes(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	m := len(x)
	size := arch.ColumnParams(m)
	var s colScalars32
	for j := range hp {
		kj := k.K[8*j : 8*j+8]
		h := float32(hp[j])
		s.f, s.A, s.B, s.E = float32(f[j]), float32(k.A[j]), float32(k.B[j]), float32(k.E[j])
		s.D, s.ki, s.kf, s.kg = float32(kj[7]), float32(kj[0]), float32(kj[1]), float32(kj[2])
		s.c, s.d = float32(c[j]), float32(d)
		// The scalar path's products κ_q·hp and D·hp, rounded as it rounds them.
		s.kc = [8]float32{s.ki * h, s.kf * h, s.kg * h, 0, s.ki, s.kf, s.kg, 0}
		s.kh = [8]float32{0, 0, 0, s.D * h, 0, 0, 0, s.D}
		o := 4 * j * size
		column32At(unsafe.Add(base32(ht), o), unsafe.Add(base32(ct), o), unsafe.Add(base32(z), o), base32(x), m, &s, add)
	}
}

// column32At advances and folds one column's block.
//
//go:noinline
func column32At(ph, pc, pz, px unsafe.Pointer, m int, s *colScalars32, add bool) {
	m8 := m &^ 7
	var tail [3][4][8]float32 // the rows' last octets: h, c, z
	if m8 < m {
		rows32(ph, pc, pz, px, m, m-8, m, unsafe.Pointer(&tail[0]), unsafe.Pointer(&tail[1]), unsafe.Pointer(&tail[2]), 8, s, add)
	}
	rows32(ph, pc, pz, px, m, 0, m8, ph, pc, pz, m, s, add)
	if m8 < m {
		for r := range 4 {
			st32At(ld32At(unsafe.Pointer(&tail[0][r]), 0), ph, r*m+m-8)
			st32At(ld32At(unsafe.Pointer(&tail[1][r]), 0), pc, r*m+m-8)
			st32At(ld32At(unsafe.Pointer(&tail[2][r]), 0), pz, r*m+m-8)
		}
	}
	// u_q and b_q: one octet with the direct terms per lane.
	vf, vA, vB, vE := bc32(s.f), bc32(s.A), bc32(s.B), bc32(s.E)
	kc, kh := archsimd.LoadFloat32x8(&s.kc), archsimd.LoadFloat32x8(&s.kh)
	i := 4 * m
	h := ld32At(ph, i)
	cn := flush32(vf.MulAdd(ld32At(pc, i), vA.MulAdd(h, kc)))
	st32At(cn, pc, i)
	hn := flush32(vB.MulAdd(cn, vE.MulAdd(h, kh)))
	st32At(hn, ph, i)
	st32At(fold32(hn, ld32At(pz, i), bc32(s.d), bc32(s.c), add), pz, i)
	clearUpper()
}

// rows32 advances the octets k = from, from+8, ... < to of the four rows
// (input weights of gates i, f, g, o) of a block at ph, pc, pz, reading the
// old values there and writing the new ones to oh, oc, oz at r·stride +
// k − from for row r (in place: oh = ph, ..., stride m, from 0).
func rows32(ph, pc, pz, px unsafe.Pointer, m, from, to int, oh, oc, oz unsafe.Pointer, stride int, s *colScalars32, add bool) {
	vf, vA, vB, vE := bc32(s.f), bc32(s.A), bc32(s.B), bc32(s.E)
	vki, vkf, vkg, vD := bc32(s.ki), bc32(s.kf), bc32(s.kg), bc32(s.D)
	vd, vc := bc32(s.d), bc32(s.c)
	m2, m3, s2, s3 := 2*m, 3*m, 2*stride, 3*stride
	for k := from; k < to; k += 8 {
		xv := ld32At(px, k)
		w := k - from
		// gate i
		h := ld32At(ph, k)
		cn := flush32(vf.MulAdd(ld32At(pc, k), vA.MulAdd(h, vki.Mul(xv))))
		st32At(cn, oc, w)
		hn := flush32(vB.MulAdd(cn, vE.Mul(h)))
		st32At(hn, oh, w)
		st32At(fold32(hn, ld32At(pz, k), vd, vc, add), oz, w)
		// gate f
		h = ld32At(ph, m+k)
		cn = flush32(vf.MulAdd(ld32At(pc, m+k), vA.MulAdd(h, vkf.Mul(xv))))
		st32At(cn, oc, stride+w)
		hn = flush32(vB.MulAdd(cn, vE.Mul(h)))
		st32At(hn, oh, stride+w)
		st32At(fold32(hn, ld32At(pz, m+k), vd, vc, add), oz, stride+w)
		// gate g
		h = ld32At(ph, m2+k)
		cn = flush32(vf.MulAdd(ld32At(pc, m2+k), vA.MulAdd(h, vkg.Mul(xv))))
		st32At(cn, oc, s2+w)
		hn = flush32(vB.MulAdd(cn, vE.Mul(h)))
		st32At(hn, oh, s2+w)
		st32At(fold32(hn, ld32At(pz, m2+k), vd, vc, add), oz, s2+w)
		// gate o: D·x enters h
		h = ld32At(ph, m3+k)
		cn = flush32(vf.MulAdd(ld32At(pc, m3+k), vA.Mul(h)))
		st32At(cn, oc, s3+w)
		hn = flush32(vB.MulAdd(cn, vE.MulAdd(h, vD.Mul(xv))))
		st32At(hn, oh, s3+w)
		st32At(fold32(hn, ld32At(pz, m3+k), vd, vc, add), oz, s3+w)
	}
}

// fold32 is the new z of an octet: d·z + c·hn if add, else c·hn (flushed).
func fold32(hn, z, vd, vc f32x8, add bool) f32x8 {
	if add {
		return flush32(vd.MulAdd(z, vc.Mul(hn)))
	}
	return flush32(vc.Mul(hn))
}

// cell32Lanes is the lane path of Cell32 (eight lanes): the octets of
// pre-activations rounded to float32 (exact: Preact32's sums are float32),
// σ and tanh in eight float32 lanes (sigmoid32x8 and tanh32x8, act32x8's
// values: one exponential and one division per lane), their values widened to float64 exactly, c = f·cp +
// i·g in float64, tanh c from c rounded to float32, h = o·tanh c in
// float64; the last octet with masked loads and stores.
func cell32Lanes(ai, af, ag, ao, cp, c, tc, h []float64) {
	u := len(cp)
	for j := 0; j < u; j += 8 {
		e := min(j+8, u)
		i := sigmoid32x8(archsimd.LoadFloat64x8SlicePart(ai[j:e]).ConvertToFloat32()).ConvertToFloat64()
		f := sigmoid32x8(archsimd.LoadFloat64x8SlicePart(af[j:e]).ConvertToFloat32()).ConvertToFloat64()
		g := tanh32x8(archsimd.LoadFloat64x8SlicePart(ag[j:e]).ConvertToFloat32()).ConvertToFloat64()
		o := sigmoid32x8(archsimd.LoadFloat64x8SlicePart(ao[j:e]).ConvertToFloat32()).ConvertToFloat64()
		cn := f.Mul(archsimd.LoadFloat64x8SlicePart(cp[j:e])).Add(i.Mul(g))
		t := tanh32x8(cn.ConvertToFloat32()).ConvertToFloat64()
		i.StoreSlicePart(ai[j:e])
		f.StoreSlicePart(af[j:e])
		g.StoreSlicePart(ag[j:e])
		o.StoreSlicePart(ao[j:e])
		cn.StoreSlicePart(c[j:e])
		t.StoreSlicePart(tc[j:e])
		o.Mul(t).StoreSlicePart(h[j:e])
	}
}

// sigmoid32x8 is act32x8 with every lane σ (the same operations on
// them, so its bits), without its selections.
func sigmoid32x8(a f32x8) f32x8 {
	one := ld32c(&k32One)
	return a.Merge(one.Div(one.Add(exp32x8(ld32c(&k32Zero).Sub(a)))), a.IsNaN())
}

// tanh32x8 is act32x8 with every lane tanh (the same operations on them,
// so its bits), without the σ lanes' selection.
func tanh32x8(a f32x8) f32x8 {
	signBit := archsimd.BroadcastInt32x8(-1 << 31)
	ai := a.AsInt32x8()
	sign := ai.And(signBit)
	z := ai.AndNot(signBit).AsFloat32x8() // |a|
	one := ld32c(&k32One)
	r := one.Div(one.Add(exp32x8(z.Add(z))))
	return a.Merge(tanhFromParts32(a, z, sign, r), a.IsNaN())
}

// tanhFromParts32 returns tanh a from |a| (z), a's sign bits and
// r = 1/(1 + e^{2|a|}): the odd polynomial below the small-argument
// threshold, else (1 − 2r) with a's sign.
func tanhFromParts32(a, z f32x8, sign archsimd.Int32x8, r f32x8) f32x8 {
	s := a.Mul(a)
	p := ld32c(&k32T0).MulAdd(s, ld32c(&k32T1))
	p = p.MulAdd(s, ld32c(&k32T2))
	p = p.MulAdd(s, ld32c(&k32T3))
	p = p.MulAdd(s, ld32c(&k32T4))
	small := p.Mul(s).MulAdd(a, a)
	large := r.MulAdd(ld32c(&k32NegTwo), ld32c(&k32One)).AsInt32x8().Or(sign).AsFloat32x8()
	return small.Merge(large, z.Less(ld32c(&k32TanhSmall)))
}

// eightLanes32 reports whether the eight-lane float64 paths run.
func eightLanes32() bool { return eightLanes }

// normalize32Lanes is the lane path of Normalize32: normalizeAt's
// operations on octets, the last one partial.
func normalize32Lanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	vb, vo, ve := archsimd.BroadcastFloat64x8(beta), archsimd.BroadcastFloat64x8(oneMinus), archsimd.BroadcastFloat64x8(eps)
	one := archsimd.BroadcastFloat64x8(1)
	n := len(h)
	for k := 0; k < n; k += 8 {
		e := min(k+8, n)
		hk := archsimd.LoadFloat64x8SlicePart(h[k:e])
		muPrev := archsimd.LoadFloat64x8SlicePart(mean[k:e])
		mu := vb.Mul(muPrev).Add(vo.Mul(hk))
		v := vb.Mul(archsimd.LoadFloat64x8SlicePart(variance[k:e])).Add(vo.Mul(mu.Sub(hk)).Mul(muPrev.Sub(hk)))
		mu.StoreSlicePart(mean[k:e])
		v.StoreSlicePart(variance[k:e])
		sd := v.Sqrt()
		sd = ve.Merge(sd, sd.Less(ve))
		s := one.Div(sd)
		s.StoreSlicePart(scale[k:e])
		hk.Sub(mu).Mul(s).StoreSlicePart(out[k:e])
	}
}

// stage32Four is the lane path of Stage32 for four columns: preact32Cols'
// operations for each column (its gates in lanes, converted to float64
// exactly), transposed to one register per gate, then cell4, the
// operations of Cell's lane path.
func stage32Four(ai, af, ag, ao, hp, cp, c, tc, h []float64, blocks, x []float32, m int) {
	var a [4]f64x4
	preact32Four(&a, base32(blocks), base32(x), base(hp), m)
	ai4, af4, ag4, ao4 := transpose4(a[0], a[1], a[2], a[3])
	i, f, g, o, cn, t, hn := cell4(ai4, af4, ag4, ao4, ld((*[4]float64)(cp)))
	stAt(i, base(ai), 0)
	stAt(f, base(af), 0)
	stAt(g, base(ag), 0)
	stAt(o, base(ao), 0)
	stAt(cn, base(c), 0)
	stAt(t, base(tc), 0)
	stAt(hn, base(h), 0)
}

// preact32Four writes into a[j] the pre-activations of column j (gate
// order in the lanes) of four columns, as preact32Cols computes them.
//
//go:noinline
func preact32Four(a *[4]f64x4, pb, px, ph unsafe.Pointer, m int) {
	size := arch.ColumnParams(m)
	m8 := m &^ 7
	xt := lastOctet32(px, m, m8)
	for j := range 4 {
		a[j] = gatePreacts32(unsafe.Add(pb, 4*j*size), px, xt, m, m8, bc(*at(ph, j)).ConvertToFloat32()).ConvertToFloat64()
	}
	clearUpper()
}

// lastOctet32 returns the octet of x at m8 = m &^ 7 with its lanes from m
// on zeroed (zero when m is a whole number of octets).
func lastOctet32(px unsafe.Pointer, m, m8 int) f32x8 {
	var xt f32x8
	if m8 < m {
		xt = ld32At(px, m8).Masked(archsimd.LoadInt32x8(&laneIndex32i).Less(archsimd.BroadcastInt32x8(int32(m - m8))))
	}
	return xt
}

// gatePreacts32 returns the four gate pre-activations of the column whose
// block starts at p, gate order in the lanes: eight partial sums per gate
// of its rows' products with x (xt is x's last octet, lastOctet32), then
// u_q·h + b_q (h in every lane).
func gatePreacts32(p, px unsafe.Pointer, xt f32x8, m, m8 int, h archsimd.Float32x4) archsimd.Float32x4 {
	p1, p2, p3 := unsafe.Add(p, 4*m), unsafe.Add(p, 8*m), unsafe.Add(p, 12*m)
	var s0, s1, s2, s3 f32x8
	k := 0
	for ; k < m8; k += 8 {
		xv := ld32At(px, k)
		s0 = ld32At(p, k).MulAdd(xv, s0)
		s1 = ld32At(p1, k).MulAdd(xv, s1)
		s2 = ld32At(p2, k).MulAdd(xv, s2)
		s3 = ld32At(p3, k).MulAdd(xv, s3)
	}
	if k < m {
		s0 = ld32At(p, k).MulAdd(xt, s0)
		s1 = ld32At(p1, k).MulAdd(xt, s1)
		s2 = ld32At(p2, k).MulAdd(xt, s2)
		s3 = ld32At(p3, k).MulAdd(xt, s3)
	}
	t := s0.AddPairsGrouped(s1).AddPairsGrouped(s2.AddPairsGrouped(s3))
	dot := t.GetLo().Add(t.GetHi())
	bq := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, 4*(4*m+4))))
	uq := archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, 4*4*m)))
	return uq.MulAdd(h, bq).Add(dot)
}

// traceScalars32Lanes is the lane path of TraceScalars32: traceScalarsLanes
// with the recurrent weights read from float32 blocks.
func traceScalars32Lanes(k TraceCoef, i, f, g, o, cp, tc []float64, blocks []float32, m int) {
	u := len(cp)
	n4 := u &^ 3
	size := 4*m + 8
	pb, pk := base32(blocks), base(k.K)
	zero := ld(&kZero)
	uq := func(j int) f64x4 {
		return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(pb, 4*(j*size+4*m)))).ConvertToFloat64()
	}
	for j := 0; j < n4; j += 4 {
		ui, uf, ug, uo := transpose4(uq(j), uq(j+1), uq(j+2), uq(j+3))
		A, B, E, D, ki, kf, kg := traceScalars4(ldAt(base(i), j), ldAt(base(f), j), ldAt(base(g), j), ldAt(base(o), j),
			ldAt(base(cp), j), ldAt(base(tc), j), ui, uf, ug, uo)
		stAt(A, base(k.A), j)
		stAt(B, base(k.B), j)
		stAt(E, base(k.E), j)
		k0, k1, k2, k3 := transpose4(ki, kf, kg, zero)
		d0, d1, d2, d3 := transpose4(zero, zero, zero, D)
		stAt(k0, pk, 8*j)
		stAt(d0, pk, 8*j+4)
		stAt(k1, pk, 8*j+8)
		stAt(d1, pk, 8*j+12)
		stAt(k2, pk, 8*j+16)
		stAt(d2, pk, 8*j+20)
		stAt(k3, pk, 8*j+24)
		stAt(d3, pk, 8*j+28)
	}
	if n4 == u {
		return
	}
	r := u - n4
	u0, u1, u2 := uq(n4), zero, zero
	if r > 1 {
		u1 = uq(n4 + 1)
	}
	if r > 2 {
		u2 = uq(n4 + 2)
	}
	ui, uf, ug, uo := transpose4(u0, u1, u2, zero)
	i, f, g, o, cp, tc = i[n4:u], f[n4:u], g[n4:u], o[n4:u], cp[n4:u], tc[n4:u]
	A, B, E, D, ki, kf, kg := traceScalars4(archsimd.LoadFloat64x4SlicePart(i), archsimd.LoadFloat64x4SlicePart(f),
		archsimd.LoadFloat64x4SlicePart(g), archsimd.LoadFloat64x4SlicePart(o),
		archsimd.LoadFloat64x4SlicePart(cp), archsimd.LoadFloat64x4SlicePart(tc), ui, uf, ug, uo)
	A.StoreSlicePart(k.A[n4:u])
	B.StoreSlicePart(k.B[n4:u])
	E.StoreSlicePart(k.E[n4:u])
	k0, k1, k2, _ := transpose4(ki, kf, kg, zero)
	d0, d1, d2, _ := transpose4(zero, zero, zero, D)
	stAt(k0, pk, 8*n4)
	stAt(d0, pk, 8*n4+4)
	if r > 1 {
		stAt(k1, pk, 8*n4+8)
		stAt(d1, pk, 8*n4+12)
	}
	if r > 2 {
		stAt(k2, pk, 8*n4+16)
		stAt(d2, pk, 8*n4+20)
	}
}
