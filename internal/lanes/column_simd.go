//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// preactLanes: each column's pre-activations (preactOne) stored per gate.
func preactLanes(ai, af, ag, ao, h, blocks, x []float64) {
	for j := range h {
		var a [4]float64
		preactOne(blocks, x, j, base(h)).Store(&a)
		clearUpper() // the scalar copies below are SSE-encoded (see doc.go)
		ai[j], af[j], ag[j], ao[j] = a[0], a[1], a[2], a[3]
	}
}

// dot4At returns the partial sums (k mod 4) of the products of the four rows
// p[q·m:q·m+n4] with x[:n4]. It is a function of its own, not inlined, so
// that its loop keeps the accumulators in registers (inlined, Go's register
// allocation spilled the caller's slices inside it: 30 instructions per
// quad instead of 10).
//
//go:noinline
func dot4At(p, px unsafe.Pointer, m, n4 int) (s0, s1, s2, s3 f64x4) {
	p1, p2, p3 := unsafe.Add(p, 8*m), unsafe.Add(p, 16*m), unsafe.Add(p, 24*m)
	for k := 0; k < n4; k += 4 {
		xv := ldAt(px, k)
		s0 = ldAt(p, k).MulAdd(xv, s0)
		s1 = ldAt(p1, k).MulAdd(xv, s1)
		s2 = ldAt(p2, k).MulAdd(xv, s2)
		s3 = ldAt(p3, k).MulAdd(xv, s3)
	}
	return s0, s1, s2, s3
}

// cell4 is Cell for four columns.
func cell4(ai, af, ag, ao, cp f64x4) (i, f, g, o, c, t, h f64x4) {
	i, f, g, o = sigmoid4(ai), sigmoid4(af), tanh4(ag), sigmoid4(ao)
	c = f.Mul(cp).Add(i.Mul(g))
	t = tanh4(c)
	return i, f, g, o, c, t, o.Mul(t)
}

func cellLanes(ai, af, ag, ao, cp, c, tc, h []float64) {
	u := len(cp)
	if u == 1 {
		cellOne(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	n4 := u &^ 3
	pi, pf, pg, po, pcp, pc, pt, ph := base(ai), base(af), base(ag), base(ao), base(cp), base(c), base(tc), base(h)
	for j := 0; j < n4; j += 4 {
		i, f, g, o, cn, t, hn := cell4(ldAt(pi, j), ldAt(pf, j), ldAt(pg, j), ldAt(po, j), ldAt(pcp, j))
		stAt(i, pi, j)
		stAt(f, pf, j)
		stAt(g, pg, j)
		stAt(o, po, j)
		stAt(cn, pc, j)
		stAt(t, pt, j)
		stAt(hn, ph, j)
	}
	if n4 == u {
		return
	}
	ai, af, ag, ao = ai[n4:u], af[n4:u], ag[n4:u], ao[n4:u]
	cp, c, tc, h = cp[n4:u], c[n4:u], tc[n4:u], h[n4:u]
	i, f, g, o, cn, t, hn := cell4(archsimd.LoadFloat64x4SlicePart(ai), archsimd.LoadFloat64x4SlicePart(af),
		archsimd.LoadFloat64x4SlicePart(ag), archsimd.LoadFloat64x4SlicePart(ao), archsimd.LoadFloat64x4SlicePart(cp))
	i.StoreSlicePart(ai)
	f.StoreSlicePart(af)
	g.StoreSlicePart(ag)
	o.StoreSlicePart(ao)
	cn.StoreSlicePart(c)
	t.StoreSlicePart(tc)
	hn.StoreSlicePart(h)
}

// cellOne is Cell for a stage of one column (Constructive): its four gates
// share the lanes of one register and one exponential (gates4) instead of
// taking a lane each of four (measured: a Constructive 5 step took 1.2× the
// CPU time of the scalar functions with one lane per gate).
func cellOne(ai, af, ag, ao, cp, c, tc, h []float64) {
	// Built in registers: four scalar stores read back as one vector would
	// wait for the stores to retire (no store-to-load forwarding).
	a := bc(ai[0]).Merge(bc(af[0]).Merge(bc(ag[0]).Merge(bc(ao[0]), lane(2)), lane(1)), lane(0))
	activateOne(a, cp, ai, af, ag, ao, c, tc, h)
}

// stageLanes is Stage: one column's pre-activations go from the dot
// products to gates4 in a register; when the stage's columns fill whole
// registers (CCN's stages of 4), each four columns' pre-activation
// registers (i, f, g, o each) are transposed into four gate registers (one
// column per lane) for cell4; other stages take Preact and Cell's lane
// paths. (Measured, CPU ns/step medians of 7 alternating rounds: CCN 20
// 2,200 → 2,050 with the transpose; Columnar 7, transposing its first four
// columns, 1,333 → 1,400, so not there.)
func stageLanes(ai, af, ag, ao, hp, cp, c, tc, h, blocks, x []float64) {
	u := len(hp)
	if u == 1 {
		activateOne(preactOne(blocks, x, 0, base(hp)), cp, ai, af, ag, ao, c, tc, h)
		return
	}
	if u%4 != 0 {
		preactLanes(ai, af, ag, ao, hp, blocks, x)
		cellLanes(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	if u == 4 {
		ai4, af4, ag4, ao4 := preact4(blocks, x, hp, 0)
		i, f, g, o, cn, t, hn := cell4(ai4, af4, ag4, ao4, ld((*[4]float64)(cp)))
		stAt(i, base(ai), 0)
		stAt(f, base(af), 0)
		stAt(g, base(ag), 0)
		stAt(o, base(ao), 0)
		stAt(cn, base(c), 0)
		stAt(t, base(tc), 0)
		stAt(hn, base(h), 0)
		return
	}
	// Wider stages in two loops, the gates and c, then tanh(c) and h: in
	// one loop, the chain from the pre-activations through two
	// exponentials to h was longer than the processor could overlap with
	// the next four columns' (Columnar 1,000: 72,000 → 68,000 CPU ns per
	// step, medians of 9 alternating rounds).
	if eightLanes {
		for j := 0; j < u; j += 4 {
			ai4, af4, ag4, ao4 := preact4(blocks, x, hp, j)
			stAt(ai4, base(ai), j)
			stAt(af4, base(af), j)
			stAt(ag4, base(ag), j)
			stAt(ao4, base(ao), j)
		}
		cell8Lanes(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	for j := 0; j < u; j += 4 {
		ai4, af4, ag4, ao4 := preact4(blocks, x, hp, j)
		i, f, g, o := sigmoid4(ai4), sigmoid4(af4), tanh4(ag4), sigmoid4(ao4)
		stAt(i, base(ai), j)
		stAt(f, base(af), j)
		stAt(g, base(ag), j)
		stAt(o, base(ao), j)
		stAt(f.Mul(ldAt(base(cp), j)).Add(i.Mul(g)), base(c), j)
	}
	for j := 0; j < u; j += 4 {
		t := tanh4(ldAt(base(c), j))
		stAt(t, base(tc), j)
		stAt(ldAt(base(ao), j).Mul(t), base(h), j)
	}
}

// cell8Lanes is Cell for u = len(cp) columns, u a multiple of 4, eight
// columns per instruction (AVX-512: exp8, sigmoid8 and tanh8 are bitwise
// the four-lane functions) in the two loops of stageLanes, the last four
// columns with cell4 when u is not a multiple of 8. (Measured, Columnar
// 1,000: the activations took a quarter of a step in four lanes.)
func cell8Lanes(ai, af, ag, ao, cp, c, tc, h []float64) {
	u := len(cp)
	u8 := u &^ 7
	pi, pf, pg, po, pcp, pc, pt, ph := base(ai), base(af), base(ag), base(ao), base(cp), base(c), base(tc), base(h)
	for j := 0; j < u8; j += 8 {
		i, f, g, o := sigmoid8(ld8At(pi, j)), sigmoid8(ld8At(pf, j)), tanh8(ld8At(pg, j)), sigmoid8(ld8At(po, j))
		st8At(i, pi, j)
		st8At(f, pf, j)
		st8At(g, pg, j)
		st8At(o, po, j)
		st8At(f.Mul(ld8At(pcp, j)).Add(i.Mul(g)), pc, j)
	}
	for j := 0; j < u8; j += 8 {
		t := tanh8(ld8At(pc, j))
		st8At(t, pt, j)
		st8At(ld8At(po, j).Mul(t), ph, j)
	}
	if u8 < u {
		i, f, g, o, cn, t, hn := cell4(ldAt(pi, u8), ldAt(pf, u8), ldAt(pg, u8), ldAt(po, u8), ldAt(pcp, u8))
		stAt(i, pi, u8)
		stAt(f, pf, u8)
		stAt(g, pg, u8)
		stAt(o, po, u8)
		stAt(cn, pc, u8)
		stAt(t, pt, u8)
		stAt(hn, ph, u8)
	}
}

// preact4 is the pre-activations of columns j..j+3, one register per
// gate (column j+r in lane r): preactOne of each column, transposed; for m
// a multiple of 4 in one call (preact4At) instead of two per column.
func preact4(blocks, x, hp []float64, j int) (ai, af, ag, ao f64x4) {
	m := len(x)
	if m%4 == 0 {
		return preact4At(unsafe.Add(base(blocks), 8*j*(4*m+8)), base(x), unsafe.Add(base(hp), 8*j), m)
	}
	ph := base(hp)
	return transpose4(preactOne(blocks, x, j, ph), preactOne(blocks, x, j+1, ph),
		preactOne(blocks, x, j+2, ph), preactOne(blocks, x, j+3, ph))
}

// preact4At is preact4 for four blocks at p (m a multiple of 4), with the
// operations of preactOne and dot4 in their order (bitwise the same). A
// function of its own, see dot4At.
//
//go:noinline
func preact4At(p, px, php unsafe.Pointer, m int) (ai, af, ag, ao f64x4) {
	var a [4]f64x4
	size := 4*m + 8
	for r := range 4 {
		p1, p2, p3 := unsafe.Add(p, 8*m), unsafe.Add(p, 16*m), unsafe.Add(p, 24*m)
		var s0, s1, s2, s3 f64x4
		for k := 0; k < m; k += 4 {
			xv := ldAt(px, k)
			s0 = ldAt(p, k).MulAdd(xv, s0)
			s1 = ldAt(p1, k).MulAdd(xv, s1)
			s2 = ldAt(p2, k).MulAdd(xv, s2)
			s3 = ldAt(p3, k).MulAdd(xv, s3)
		}
		t01, t23 := s0.AddPairsGrouped(s1), s2.AddPairsGrouped(s3)
		dot := t01.Select128FromPair(0, 2, t23).Add(t01.Select128FromPair(1, 3, t23))
		a[r] = ldAt(p, 4*m+4).Add(ldAt(p, 4*m).Mul(bc(*at(php, r)))).Add(dot)
		if r < 3 {
			p = unsafe.Add(p, 8*size)
		}
	}
	return transpose4(a[0], a[1], a[2], a[3])
}

// preactOne is column j's pre-activations b + u·h + W·x, gate order i, f,
// g, o in the lanes, h = ph[j]. The hidden state is read from memory into
// a broadcast after the dot products: a float64 held across their call was
// spilled and reloaded with legacy-SSE moves (doc.go).
func preactOne(blocks, x []float64, j int, ph unsafe.Pointer) f64x4 {
	m := len(x)
	size := 4*m + 8
	blk := blocks[j*size : (j+1)*size]
	p := base(blk)
	d := dot4(blk[:4*m], x)
	return ldAt(p, 4*m+4).Add(ldAt(p, 4*m).Mul(bc(*at(ph, j)))).Add(d)
}

// activateOne finishes Cell for one column from its pre-activations a (gate
// order i, f, g, o) and previous cell state cp[0], all in lanes: each gate
// broadcast, c = f·cp + i·g and h = o·tanh(c) computed in every lane (the
// scalar path's operations), each result stored from its first lane. In
// scalar float64 code, the gates' spills cost a quarter of a Constructive
// step in legacy-SSE moves run between the vector code (doc.go).
func activateOne(a f64x4, cp, ai, af, ag, ao, c, tc, h []float64) {
	gt := gates4(a)
	lo, hi := gt.Select128FromPair(0, 0, gt), gt.Select128FromPair(1, 1, gt) // (i f i f), (g o g o)
	i, f := lo.SelectFromPairGrouped(0, 0, lo), lo.SelectFromPairGrouped(1, 1, lo)
	g, o := hi.SelectFromPairGrouped(0, 0, hi), hi.SelectFromPairGrouped(1, 1, hi)
	cn := f.Mul(bc(cp[0])).Add(i.Mul(g))
	t := tanh4(cn)
	i.StoreSlicePart(ai[:1])
	f.StoreSlicePart(af[:1])
	g.StoreSlicePart(ag[:1])
	o.StoreSlicePart(ao[:1])
	cn.StoreSlicePart(c[:1])
	t.StoreSlicePart(tc[:1])
	o.Mul(t).StoreSlicePart(h[:1])
}

// kIndex holds the lane numbers and kLane each lane number in every lane;
// lane(q) is the mask of lane q. (From memory: bc(0) is a legacy-SSE XORPS,
// see doc.go.)
var (
	kIndex = [4]float64{0, 1, 2, 3}
	kLane  = [4][4]float64{{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}
)

func lane(q int) archsimd.Mask64x4 { return ld(&kIndex).Equal(ld(&kLane[q])) }

// columnTraceLanes runs the four gates' weights in one pass over x (x read
// once per quad), the recurrent scalars and the biases as one quad each
// (gate order i, f, g, o in the lanes). Separate multiplies and adds in the
// scalar order keep it bitwise equal to the scalar path. The last 8 entries
// and the tail of m mod 4 inputs come before the loop (each entry's update
// is its own, so the order is free): after it, the compiler rebroadcast the
// scalars from their float64s, which it then kept live across the loop and
// reloaded in every iteration with a legacy-SSE move (see doc.go).
func columnTraceLanes(ht, ct, x []float64, f, A, B, E, D, ki, kf, kg, hp float64) {
	m := len(x)
	n4 := m &^ 3
	vf, vA, vB, vE := bc(f), bc(A), bc(B), bc(E)
	vki, vkf, vkg, vD := bc(ki), bc(kf), bc(kg), bc(D)
	ph, pc, px := base(ht), base(ct), base(x)
	// (κ_i, κ_f, κ_g, 0) and (0, 0, 0, D), built in registers (see cellOne);
	// these 8 entries first, so that hp is not held (as a float64) across
	// traceTailAt's call.
	zero := ld(&kZero)
	kv := vki.Merge(vkf.Merge(vkg.Merge(zero, lane(2)), lane(1)), lane(0))
	dv := vD.Merge(zero, lane(3))
	directTermsAt(ph, pc, m, vf, vA, vB, vE, kv, dv, bc(hp))
	if n4 < m {
		traceTailAt(ph, pc, px, m, n4, vf, vA, vB, vE, vki, vkf, vkg, vD, nil, f64x4{}, f64x4{}, false)
	}
	for k := 0; k < n4; k += 4 {
		xv := ldAt(px, k)
		h := ldAt(ph, k)
		c := vf.Mul(ldAt(pc, k)).Add(vA.Mul(h)).Add(vki.Mul(xv))
		stAt(c, pc, k)
		stAt(vB.Mul(c).Add(vE.Mul(h)), ph, k)
		h = ldAt(ph, m+k)
		c = vf.Mul(ldAt(pc, m+k)).Add(vA.Mul(h)).Add(vkf.Mul(xv))
		stAt(c, pc, m+k)
		stAt(vB.Mul(c).Add(vE.Mul(h)), ph, m+k)
		h = ldAt(ph, 2*m+k)
		c = vf.Mul(ldAt(pc, 2*m+k)).Add(vA.Mul(h)).Add(vkg.Mul(xv))
		stAt(c, pc, 2*m+k)
		stAt(vB.Mul(c).Add(vE.Mul(h)), ph, 2*m+k)
		h = ldAt(ph, 3*m+k)
		c = vf.Mul(ldAt(pc, 3*m+k)).Add(vA.Mul(h))
		stAt(c, pc, 3*m+k)
		stAt(vB.Mul(c).Add(vE.Mul(h)).Add(vD.Mul(xv)), ph, 3*m+k)
	}
}

// transpose4 turns four registers of four values into four registers of
// their lanes: r_q holds lane q of a0, a1, a2, a3 (four columns' gate
// registers into one register per gate).
func transpose4(a0, a1, a2, a3 f64x4) (r0, r1, r2, r3 f64x4) {
	// (a0₀ a1₀ a0₂ a1₂), (a0₁ a1₁ a0₃ a1₃) and the same for a2, a3; then
	// the 128-bit halves paired.
	t0, t1 := a0.SelectFromPairGrouped(0, 2, a1), a0.SelectFromPairGrouped(1, 3, a1)
	t2, t3 := a2.SelectFromPairGrouped(0, 2, a3), a2.SelectFromPairGrouped(1, 3, a3)
	return t0.Select128FromPair(0, 2, t2), t1.Select128FromPair(0, 2, t3),
		t0.Select128FromPair(1, 3, t2), t1.Select128FromPair(1, 3, t3)
}

// traceScalarsLanes is TraceScalars four columns per instruction (the
// recurrent weights of four columns transposed into one register per gate,
// the coefficients κ_q and D transposed back into one register per
// column; a last partial register takes the remaining columns).
func traceScalarsLanes(k TraceCoef, i, f, g, o, cp, tc, blocks []float64, m int) {
	u := len(cp)
	n4 := u &^ 3
	size := 4*m + 8
	pb, pk := base(blocks), base(k.K)
	zero := ld(&kZero)
	for j := 0; j < n4; j += 4 {
		ui, uf, ug, uo := transpose4(ldAt(pb, j*size+4*m), ldAt(pb, (j+1)*size+4*m),
			ldAt(pb, (j+2)*size+4*m), ldAt(pb, (j+3)*size+4*m))
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
	u0, u1, u2 := ldAt(pb, n4*size+4*m), zero, zero
	if r > 1 {
		u1 = ldAt(pb, (n4+1)*size+4*m)
	}
	if r > 2 {
		u2 = ldAt(pb, (n4+2)*size+4*m)
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

// traceScalars4 is TraceScalars for four columns with activations vi, vf,
// vg, vo, previous cell states vcp, tanh(c) vt and recurrent weights ui,
// uf, ug, uo (one register per gate).
func traceScalars4(vi, vf, vg, vo, vcp, vt, ui, uf, ug, uo f64x4) (A, B, E, D, ki, kf, kg f64x4) {
	one := ld(&kOne)
	si, sf, sg, so := vi.Mul(one.Sub(vi)), vf.Mul(one.Sub(vf)), one.Sub(vg.Mul(vg)), vo.Mul(one.Sub(vo))
	ki, kf, kg = vg.Mul(si), vcp.Mul(sf), vi.Mul(sg)
	A = kf.Mul(uf).Add(kg.Mul(ug)).Add(ki.Mul(ui))
	B = vo.Mul(one.Sub(vt.Mul(vt)))
	D = vt.Mul(so)
	return A, B, D.Mul(uo), D, ki, kf, kg
}

// traceTailAt advances one column's traces of its last m − n4 (< 4) inputs
// in each gate's block, in lanes loaded and stored in part (the lanes past
// them zero and not stored): traceScalar's and traceOutScalar's operations
// on each entry, without scalar code between vector instructions (doc.go).
// The column's scalars come broadcast: vf, vA, vB, vE, the gates' κ and D.
// Where pz is not nil, each new ∂h/∂θ is folded into the column's block of
// z at pz as foldQuad does (coefficient vc, decay vd, add).
func traceTailAt(ph, pc, px unsafe.Pointer, m, n4 int, vf, vA, vB, vE, vki, vkf, vkg, vD f64x4,
	pz unsafe.Pointer, vc, vd f64x4, add bool) {
	r := m - n4
	part := func(p unsafe.Pointer, i int) []float64 { return unsafe.Slice(at(p, i), r) }
	fold := func(hn f64x4, i int) {
		if pz == nil {
			return
		}
		zs := part(pz, i)
		if add {
			foldAdd(archsimd.LoadFloat64x4SlicePart(zs), hn, vc, vd).StoreSlicePart(zs)
			return
		}
		foldSet(hn, vc).StoreSlicePart(zs)
	}
	xv := archsimd.LoadFloat64x4SlicePart(part(px, n4))
	for q, kq := range [3]f64x4{vki, vkf, vkg} {
		hs, cs := part(ph, q*m+n4), part(pc, q*m+n4)
		h := archsimd.LoadFloat64x4SlicePart(hs)
		c := vf.Mul(archsimd.LoadFloat64x4SlicePart(cs)).Add(vA.Mul(h)).Add(kq.Mul(xv))
		c.StoreSlicePart(cs)
		hn := vB.Mul(c).Add(vE.Mul(h))
		hn.StoreSlicePart(hs)
		fold(hn, q*m+n4)
	}
	hs, cs := part(ph, 3*m+n4), part(pc, 3*m+n4)
	h := archsimd.LoadFloat64x4SlicePart(hs)
	c := vf.Mul(archsimd.LoadFloat64x4SlicePart(cs)).Add(vA.Mul(h))
	c.StoreSlicePart(cs)
	hn := vB.Mul(c).Add(vE.Mul(h)).Add(vD.Mul(xv))
	hn.StoreSlicePart(hs)
	fold(hn, 3*m+n4)
}

// stageTraceLanes is StageTrace: one loop over the columns (stageTraceAt).
func stageTraceLanes(ht, ct, x, f, hp []float64, k TraceCoef) {
	stageTraceAt(base(ht), base(ct), base(x), base(f), base(hp), &k, len(hp), len(x))
}

// stageTraceAt advances the traces of u columns of m inputs as
// columnTraceLanes does for one, the columns' scalars broadcast from k and
// their blocks taken in turn (a function of its own, see dot4At); the last
// m mod 4 inputs of each gate by traceTailAt.
//
// Every scalar is broadcast from memory, none passed as a float64: the
// compiler spills and reloads float64 values live across a vector loop with
// legacy-SSE moves, and on an Intel Xeon (AVX-VNNI, AMX) each SSE
// instruction run while the vector registers' upper halves are in use costs
// about a hundred cycles. Column by column with scalar arguments
// (columnTraceLanes) Columnar 6 at 275 inputs ran about five times slower
// there (docs/performance.md, "Intel").
//
//go:noinline
func stageTraceAt(ph0, pc0, px, pf, php unsafe.Pointer, k *TraceCoef, u, m int) {
	pA, pB, pE, pk := base(k.A), base(k.B), base(k.E), base(k.K)
	m2, m3, size := 2*m, 3*m, 4*m+8
	n4 := m &^ 3
	for j := 0; j < u; j++ {
		ph, pc := unsafe.Add(ph0, 8*size*j), unsafe.Add(pc0, 8*size*j)
		vf, vA, vB, vE := bc(*at(pf, j)), bc(*at(pA, j)), bc(*at(pB, j)), bc(*at(pE, j))
		kq := unsafe.Add(pk, 64*j)
		vki, vkf, vkg, vD := bc(*at(kq, 0)), bc(*at(kq, 1)), bc(*at(kq, 2)), bc(*at(kq, 7))
		if n4 < m { // the tail first
			traceTailAt(ph, pc, px, m, n4, vf, vA, vB, vE, vki, vkf, vkg, vD, nil, f64x4{}, f64x4{}, false)
		}
		for i := 0; i < n4; i += 4 {
			xv := ldAt(px, i)
			h := ldAt(ph, i)
			c := vf.Mul(ldAt(pc, i)).Add(vA.Mul(h)).Add(vki.Mul(xv))
			stAt(c, pc, i)
			stAt(vB.Mul(c).Add(vE.Mul(h)), ph, i)
			h = ldAt(ph, m+i)
			c = vf.Mul(ldAt(pc, m+i)).Add(vA.Mul(h)).Add(vkf.Mul(xv))
			stAt(c, pc, m+i)
			stAt(vB.Mul(c).Add(vE.Mul(h)), ph, m+i)
			h = ldAt(ph, m2+i)
			c = vf.Mul(ldAt(pc, m2+i)).Add(vA.Mul(h)).Add(vkg.Mul(xv))
			stAt(c, pc, m2+i)
			stAt(vB.Mul(c).Add(vE.Mul(h)), ph, m2+i)
			h = ldAt(ph, m3+i)
			c = vf.Mul(ldAt(pc, m3+i)).Add(vA.Mul(h))
			stAt(c, pc, m3+i)
			stAt(vB.Mul(c).Add(vE.Mul(h)).Add(vD.Mul(xv)), ph, m3+i)
		}
		directTermsAt(ph, pc, m, vf, vA, vB, vE, ldAt(kq, 0), ldAt(kq, 4), bc(*at(php, j)))
	}
	clearUpper()
}

// directTermsAt advances the last 8 entries of one column's trace block (m
// inputs) at ph, pc: the recurrent weights u_q, direct term hp (vh in every
// lane), then the biases b_q, direct term 1, gate order i, f, g, o in the
// lanes, with kv = (κ_i, κ_f, κ_g, 0) and dv = (0, 0, 0, D).
func directTermsAt(ph, pc unsafe.Pointer, m int, vf, vA, vB, vE, kv, dv, vh f64x4) {
	h := ldAt(ph, 4*m)
	c := vf.Mul(ldAt(pc, 4*m)).Add(vA.Mul(h)).Add(kv.Mul(vh))
	stAt(c, pc, 4*m)
	stAt(vB.Mul(c).Add(vE.Mul(h)).Add(dv.Mul(vh)), ph, 4*m)
	h = ldAt(ph, 4*m+4)
	c = vf.Mul(ldAt(pc, 4*m+4)).Add(vA.Mul(h)).Add(kv)
	stAt(c, pc, 4*m+4)
	stAt(vB.Mul(c).Add(vE.Mul(h)).Add(dv), ph, 4*m+4)
}

// stageTraceFoldLanes is StageTraceFold in one pass (stageTraceFoldAt).
func stageTraceFoldLanes(ht, ct, x, f, hp []float64, k TraceCoef, z []float64, d float64, c []float64, add bool) {
	stageTraceFoldAt(base(ht), base(ct), base(x), base(f), base(hp), &k, len(hp), len(x), base(z), base(c), d, add)
}

// foldQuad folds a quad hn of new ∂h/∂θ into z at p[i:i+4] with
// coefficient vc: foldAdd if add, else foldSet.
func foldQuad(hn, vc, vd f64x4, p unsafe.Pointer, i int, add bool) {
	if add {
		stAt(foldAdd(ldAt(p, i), hn, vc, vd), p, i)
		return
	}
	stAt(foldSet(hn, vc), p, i)
}

// foldAdd is a quad z of the trace folded with new ∂h/∂θ hn: d·z + c·hn,
// ScaleAddBlocks' operations.
func foldAdd(z, hn, vc, vd f64x4) f64x4 { return vd.Mul(z).Add(vc.Mul(hn)) }

// foldSet is the quad of the trace set from new ∂h/∂θ hn: c·hn + 0,
// ScaleBlocks' operations.
func foldSet(hn, vc f64x4) f64x4 { return vc.Mul(hn).Add(ld(&kZero)) }

// stageTraceFoldAt is stageTraceAt with each new quad of ∂h/∂θ folded into
// z as it is computed (foldQuad; z's blocks lie like the traces' blocks, c
// holds a coefficient per column), so that the traces are read once per
// step instead of once by the trace update and once by the gradient; the
// last m mod 4 inputs of each gate by traceTailAt, folding too.
//
//go:noinline
func stageTraceFoldAt(ph0, pc0, px, pf, php unsafe.Pointer, k *TraceCoef, u, m int, pz0, pcoef unsafe.Pointer, d float64, add bool) {
	pA, pB, pE, pk := base(k.A), base(k.B), base(k.E), base(k.K)
	m2, m3, size := 2*m, 3*m, 4*m+8
	n4 := m &^ 3
	vd := bc(d)
	for j := 0; j < u; j++ {
		ph, pc, pz := unsafe.Add(ph0, 8*size*j), unsafe.Add(pc0, 8*size*j), unsafe.Add(pz0, 8*size*j)
		vf, vA, vB, vE := bc(*at(pf, j)), bc(*at(pA, j)), bc(*at(pB, j)), bc(*at(pE, j))
		vc := bc(*at(pcoef, j))
		kq := unsafe.Add(pk, 64*j)
		vki, vkf, vkg, vD := bc(*at(kq, 0)), bc(*at(kq, 1)), bc(*at(kq, 2)), bc(*at(kq, 7))
		if n4 < m { // the tail first, as stageTraceAt
			traceTailAt(ph, pc, px, m, n4, vf, vA, vB, vE, vki, vkf, vkg, vD, pz, vc, vd, add)
		}
		for i := 0; i < n4; i += 4 {
			xv := ldAt(px, i)
			h := ldAt(ph, i)
			c := vf.Mul(ldAt(pc, i)).Add(vA.Mul(h)).Add(vki.Mul(xv))
			stAt(c, pc, i)
			hn := vB.Mul(c).Add(vE.Mul(h))
			stAt(hn, ph, i)
			foldQuad(hn, vc, vd, pz, i, add)
			h = ldAt(ph, m+i)
			c = vf.Mul(ldAt(pc, m+i)).Add(vA.Mul(h)).Add(vkf.Mul(xv))
			stAt(c, pc, m+i)
			hn = vB.Mul(c).Add(vE.Mul(h))
			stAt(hn, ph, m+i)
			foldQuad(hn, vc, vd, pz, m+i, add)
			h = ldAt(ph, m2+i)
			c = vf.Mul(ldAt(pc, m2+i)).Add(vA.Mul(h)).Add(vkg.Mul(xv))
			stAt(c, pc, m2+i)
			hn = vB.Mul(c).Add(vE.Mul(h))
			stAt(hn, ph, m2+i)
			foldQuad(hn, vc, vd, pz, m2+i, add)
			h = ldAt(ph, m3+i)
			c = vf.Mul(ldAt(pc, m3+i)).Add(vA.Mul(h))
			stAt(c, pc, m3+i)
			hn = vB.Mul(c).Add(vE.Mul(h)).Add(vD.Mul(xv))
			stAt(hn, ph, m3+i)
			foldQuad(hn, vc, vd, pz, m3+i, add)
		}
		kv, dv, vh := ldAt(kq, 0), ldAt(kq, 4), bc(*at(php, j))
		h := ldAt(ph, 4*m)
		c := vf.Mul(ldAt(pc, 4*m)).Add(vA.Mul(h)).Add(kv.Mul(vh))
		stAt(c, pc, 4*m)
		hn := vB.Mul(c).Add(vE.Mul(h)).Add(dv.Mul(vh))
		stAt(hn, ph, 4*m)
		foldQuad(hn, vc, vd, pz, 4*m, add)
		h = ldAt(ph, 4*m+4)
		c = vf.Mul(ldAt(pc, 4*m+4)).Add(vA.Mul(h)).Add(kv)
		stAt(c, pc, 4*m+4)
		hn = vB.Mul(c).Add(vE.Mul(h)).Add(dv)
		stAt(hn, ph, 4*m+4)
		foldQuad(hn, vc, vd, pz, 4*m+4, add)
	}
	clearUpper()
}
