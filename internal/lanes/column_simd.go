//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// preactLanes: four dot products per column with fused multiply-adds over
// quads of x (dot4At), then b + u·h + the sums.
func preactLanes(ai, af, ag, ao, h, blocks, x []float64) {
	m := len(x)
	size := 4*m + 8
	n4 := m &^ 3
	px := base(x)
	var xt f64x4
	if n4 < m {
		xt = archsimd.LoadFloat64x4SlicePart(x[n4:])
	}
	for j, hj := range h {
		p := unsafe.Add(base(blocks), 8*j*size)
		s0, s1, s2, s3 := dot4At(p, px, m, n4)
		if n4 < m {
			w := blocks[j*size : j*size+4*m]
			s0 = archsimd.LoadFloat64x4SlicePart(w[n4:m]).MulAdd(xt, s0)
			s1 = archsimd.LoadFloat64x4SlicePart(w[m+n4:2*m]).MulAdd(xt, s1)
			s2 = archsimd.LoadFloat64x4SlicePart(w[2*m+n4:3*m]).MulAdd(xt, s2)
			s3 = archsimd.LoadFloat64x4SlicePart(w[3*m+n4:4*m]).MulAdd(xt, s3)
		}
		// [s0₀+s0₁, s1₀+s1₁, s0₂+s0₃, s1₂+s1₃] and the same for rows 2, 3;
		// then the low halves plus the high halves give the four row sums.
		t01 := s0.AddPairsGrouped(s1)
		t23 := s2.AddPairsGrouped(s3)
		sum := t01.Select128FromPair(0, 2, t23).Add(t01.Select128FromPair(1, 3, t23))
		var a [4]float64
		ldAt(p, 4*m+4).Add(ldAt(p, 4*m).Mul(bc(hj))).Add(sum).Store(&a)
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
	var a [4]float64
	gates4(archsimd.LoadFloat64x4(&[4]float64{ai[0], af[0], ag[0], ao[0]})).Store(&a)
	i, f, g, o := a[0], a[1], a[2], a[3]
	cn := f*cp[0] + i*g
	tanh4(bc(cn)).Store(&a)
	ai[0], af[0], ag[0], ao[0] = i, f, g, o
	c[0], tc[0], h[0] = cn, a[0], o*a[0]
}

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
	kv := archsimd.LoadFloat64x4(&[4]float64{ki, kf, kg, 0})
	dv := archsimd.LoadFloat64x4(&[4]float64{0, 0, 0, D})
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
