//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// preactLanes: each column's pre-activations (preactOne) stored per gate.
func preactLanes(ai, af, ag, ao, h, blocks, x []float64) {
	for j, hj := range h {
		var a [4]float64
		preactOne(blocks, x, j, hj).Store(&a)
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
	activateOne(a, cp[0], ai, af, ag, ao, c, tc, h)
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
		activateOne(preactOne(blocks, x, 0, hp[0]), cp[0], ai, af, ag, ao, c, tc, h)
		return
	}
	if u%4 != 0 {
		preactLanes(ai, af, ag, ao, hp, blocks, x)
		cellLanes(ai, af, ag, ao, cp, c, tc, h)
		return
	}
	for j := 0; j < u; j += 4 {
		a0 := preactOne(blocks, x, j, hp[j])
		a1 := preactOne(blocks, x, j+1, hp[j+1])
		a2 := preactOne(blocks, x, j+2, hp[j+2])
		a3 := preactOne(blocks, x, j+3, hp[j+3])
		// 4×4 transpose: (i0 i1 g0 g1), (f0 f1 o0 o1) and the same for
		// columns 2, 3; then the 128-bit halves paired.
		t0, t1 := a0.SelectFromPairGrouped(0, 2, a1), a0.SelectFromPairGrouped(1, 3, a1)
		t2, t3 := a2.SelectFromPairGrouped(0, 2, a3), a2.SelectFromPairGrouped(1, 3, a3)
		i, f, g, o, cn, t, hn := cell4(t0.Select128FromPair(0, 2, t2), t1.Select128FromPair(0, 2, t3),
			t0.Select128FromPair(1, 3, t2), t1.Select128FromPair(1, 3, t3), ldAt(base(cp), j))
		stAt(i, base(ai), j)
		stAt(f, base(af), j)
		stAt(g, base(ag), j)
		stAt(o, base(ao), j)
		stAt(cn, base(c), j)
		stAt(t, base(tc), j)
		stAt(hn, base(h), j)
	}
}

// preactOne is column j's pre-activations b + u·h + W·x, gate order i, f,
// g, o in the lanes.
func preactOne(blocks, x []float64, j int, hj float64) f64x4 {
	m := len(x)
	size := 4*m + 8
	blk := blocks[j*size : (j+1)*size]
	p := base(blk)
	return ldAt(p, 4*m+4).Add(ldAt(p, 4*m).Mul(bc(hj))).Add(dot4(blk[:4*m], x))
}

// activateOne finishes Cell for one column from its pre-activations a (gate
// order i, f, g, o) and previous cell state cp.
func activateOne(a f64x4, cp float64, ai, af, ag, ao, c, tc, h []float64) {
	var gt, t [4]float64
	gates4(a).Store(&gt)
	i, f, g, o := gt[0], gt[1], gt[2], gt[3]
	cn := f*cp + i*g
	tanh4(bc(cn)).Store(&t)
	ai[0], af[0], ag[0], ao[0] = i, f, g, o
	c[0], tc[0], h[0] = cn, t[0], o*t[0]
}

// kIndex holds the lane numbers; lane(q) is the mask of lane q.
var kIndex = [4]float64{0, 1, 2, 3}

func lane(q int) archsimd.Mask64x4 { return ld(&kIndex).Equal(bc(float64(q))) }

// columnTraceLanes runs the four gates' weights in one pass over x (x read
// once per quad), then the recurrent scalars and the biases as one quad each
// (gate order i, f, g, o in the lanes). Separate multiplies and adds in the
// scalar order keep it bitwise equal to the scalar path.
func columnTraceLanes(ht, ct, x []float64, f, A, B, E, D, ki, kf, kg, hp float64) {
	m := len(x)
	n4 := m &^ 3
	vf, vA, vB, vE := bc(f), bc(A), bc(B), bc(E)
	vki, vkf, vkg, vD := bc(ki), bc(kf), bc(kg), bc(D)
	ph, pc, px := base(ht), base(ct), base(x)
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
	if n4 < m {
		xt := x[n4:]
		traceScalar(ht[n4:m], ct[n4:m], xt, f, A, B, E, ki)
		traceScalar(ht[m+n4:2*m], ct[m+n4:2*m], xt, f, A, B, E, kf)
		traceScalar(ht[2*m+n4:3*m], ct[2*m+n4:3*m], xt, f, A, B, E, kg)
		traceOutScalar(ht[3*m+n4:4*m], ct[3*m+n4:4*m], xt, f, A, B, E, D)
	}
	// (κ_i, κ_f, κ_g, 0) and (0, 0, 0, D), built in registers (see cellOne).
	zero := ld(&kZero)
	kv := vki.Merge(vkf.Merge(vkg.Merge(zero, lane(2)), lane(1)), lane(0))
	dv := vD.Merge(zero, lane(3))
	vh := bc(hp)
	h := ldAt(ph, 4*m)
	c := vf.Mul(ldAt(pc, 4*m)).Add(vA.Mul(h)).Add(kv.Mul(vh))
	stAt(c, pc, 4*m)
	stAt(vB.Mul(c).Add(vE.Mul(h)).Add(dv.Mul(vh)), ph, 4*m)
	h = ldAt(ph, 4*m+4)
	c = vf.Mul(ldAt(pc, 4*m+4)).Add(vA.Mul(h)).Add(kv)
	stAt(c, pc, 4*m+4)
	stAt(vB.Mul(c).Add(vE.Mul(h)).Add(dv), ph, 4*m+4)
}
