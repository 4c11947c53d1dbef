//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// Tails shorter than four lanes go through partial loads and stores
// (the missing lanes read as 0 and are not written).

func outerSumLanes(g, d []float64, x [][]float64, R, m int) {
	n4 := m &^ 3
	pd := base(d)
	// Four rows at a time: each x quad is loaded once for the four rows and
	// each coefficient broadcast once for two quads.
	r := 0
	for ; r+4 <= R; r += 4 {
		pg := base(g[r*m : (r+4)*m])
		j := 0
		for ; j+8 <= n4; j += 8 {
			outerSum4x8(pg, pd, x, R, r, m, j)
		}
		if j < n4 {
			outerSum4x4(pg, pd, x, R, r, m, j)
		}
	}
	for ; r < R; r++ {
		pg := base(g[r*m : (r+1)*m])
		j := 0
		for ; j+16 <= n4; j += 16 {
			outerSum16(pg, pd, x, R, r, j)
		}
		if j+8 <= n4 {
			outerSum8(pg, pd, x, R, r, j)
			j += 8
		}
		if j < n4 {
			outerSum4(pg, pd, x, R, r, j)
		}
	}
	if n4 < m {
		// The last m − n4 < 4 columns, four rows at a time as above: each
		// partial quad of x loaded once for the four rows.
		r := 0
		for ; r+4 <= R; r += 4 {
			row0, row1 := g[r*m+n4:(r+1)*m], g[(r+1)*m+n4:(r+2)*m]
			row2, row3 := g[(r+2)*m+n4:(r+3)*m], g[(r+3)*m+n4:(r+4)*m]
			a0, a1 := archsimd.LoadFloat64x4SlicePart(row0), archsimd.LoadFloat64x4SlicePart(row1)
			a2, a3 := archsimd.LoadFloat64x4SlicePart(row2), archsimd.LoadFloat64x4SlicePart(row3)
			for n := range x {
				xq := archsimd.LoadFloat64x4SlicePart(x[n][n4:])
				dn := unsafe.Add(pd, 8*(n*R+r))
				a0 = a0.Add(bc(*at(dn, 0)).Mul(xq))
				a1 = a1.Add(bc(*at(dn, 1)).Mul(xq))
				a2 = a2.Add(bc(*at(dn, 2)).Mul(xq))
				a3 = a3.Add(bc(*at(dn, 3)).Mul(xq))
			}
			a0.StoreSlicePart(row0)
			a1.StoreSlicePart(row1)
			a2.StoreSlicePart(row2)
			a3.StoreSlicePart(row3)
		}
		for ; r < R; r++ {
			row := g[r*m+n4 : (r+1)*m]
			acc := archsimd.LoadFloat64x4SlicePart(row)
			for n := range x {
				acc = acc.Add(bc(*at(pd, n*R+r)).Mul(archsimd.LoadFloat64x4SlicePart(x[n][n4:])))
			}
			acc.StoreSlicePart(row)
		}
	}
}

// outerSum4x8 is outerSumLanes for the entries j..j+7 of the four rows
// r..r+3 (pg is the address of row r, rows m apart): eight quads of sums in
// registers across the window, each quad of x loaded once per step of the
// window and each coefficient broadcast once.
//
//go:noinline
func outerSum4x8(pg, pd unsafe.Pointer, x [][]float64, R, r, m, j int) {
	p1, p2, p3 := unsafe.Add(pg, 8*m), unsafe.Add(pg, 16*m), unsafe.Add(pg, 24*m)
	a00, a01 := ldAt(pg, j), ldAt(pg, j+4)
	a10, a11 := ldAt(p1, j), ldAt(p1, j+4)
	a20, a21 := ldAt(p2, j), ldAt(p2, j+4)
	a30, a31 := ldAt(p3, j), ldAt(p3, j+4)
	dn := unsafe.Add(pd, 8*r)
	for _, xn := range x {
		px := unsafe.Add(base(xn), 8*j)
		x0, x1 := ldAt(px, 0), ldAt(px, 4)
		dq := (*[4]float64)(dn)
		d := bc(dq[0])
		a00, a01 = a00.Add(d.Mul(x0)), a01.Add(d.Mul(x1))
		d = bc(dq[1])
		a10, a11 = a10.Add(d.Mul(x0)), a11.Add(d.Mul(x1))
		d = bc(dq[2])
		a20, a21 = a20.Add(d.Mul(x0)), a21.Add(d.Mul(x1))
		d = bc(dq[3])
		a30, a31 = a30.Add(d.Mul(x0)), a31.Add(d.Mul(x1))
		dn = unsafe.Add(dn, 8*R)
	}
	stAt(a00, pg, j)
	stAt(a01, pg, j+4)
	stAt(a10, p1, j)
	stAt(a11, p1, j+4)
	stAt(a20, p2, j)
	stAt(a21, p2, j+4)
	stAt(a30, p3, j)
	stAt(a31, p3, j+4)
	clearUpper()
}

// outerSum4x4 is outerSum4x8 for the four entries j..j+3.
//
//go:noinline
func outerSum4x4(pg, pd unsafe.Pointer, x [][]float64, R, r, m, j int) {
	p1, p2, p3 := unsafe.Add(pg, 8*m), unsafe.Add(pg, 16*m), unsafe.Add(pg, 24*m)
	a0, a1, a2, a3 := ldAt(pg, j), ldAt(p1, j), ldAt(p2, j), ldAt(p3, j)
	dn := unsafe.Add(pd, 8*r)
	for _, xn := range x {
		x0 := ldAt(base(xn), j)
		dq := (*[4]float64)(dn)
		a0 = a0.Add(bc(dq[0]).Mul(x0))
		a1 = a1.Add(bc(dq[1]).Mul(x0))
		a2 = a2.Add(bc(dq[2]).Mul(x0))
		a3 = a3.Add(bc(dq[3]).Mul(x0))
		dn = unsafe.Add(dn, 8*R)
	}
	stAt(a0, pg, j)
	stAt(a1, p1, j)
	stAt(a2, p2, j)
	stAt(a3, p3, j)
	clearUpper()
}

// outerSum8 and outerSum4 are outerSum16 for 8 and 4 entries.
//
//go:noinline
func outerSum8(pg, pd unsafe.Pointer, x [][]float64, R, r, j int) {
	a0, a1 := ldAt(pg, j), ldAt(pg, j+4)
	for n, xn := range x {
		vd := bc(*at(pd, n*R+r))
		px := base(xn)
		a0 = a0.Add(vd.Mul(ldAt(px, j)))
		a1 = a1.Add(vd.Mul(ldAt(px, j+4)))
	}
	stAt(a0, pg, j)
	stAt(a1, pg, j+4)
	clearUpper()
}

//go:noinline
func outerSum4(pg, pd unsafe.Pointer, x [][]float64, R, r, j int) {
	a0 := ldAt(pg, j)
	for n, xn := range x {
		a0 = a0.Add(bc(*at(pd, n*R+r)).Mul(ldAt(base(xn), j)))
	}
	stAt(a0, pg, j)
	clearUpper()
}

// outerSum16 is outerSumLanes for the 16 entries pg[j:j+16] of row r, the
// four quads of sums kept in registers across the window (a function of its
// own, see dot4At).
//
//go:noinline
func outerSum16(pg, pd unsafe.Pointer, x [][]float64, R, r, j int) {
	a0, a1, a2, a3 := ldAt(pg, j), ldAt(pg, j+4), ldAt(pg, j+8), ldAt(pg, j+12)
	for n, xn := range x {
		vd := bc(*at(pd, n*R+r))
		px := base(xn)
		a0 = a0.Add(vd.Mul(ldAt(px, j)))
		a1 = a1.Add(vd.Mul(ldAt(px, j+4)))
		a2 = a2.Add(vd.Mul(ldAt(px, j+8)))
		a3 = a3.Add(vd.Mul(ldAt(px, j+12)))
	}
	stAt(a0, pg, j)
	stAt(a1, pg, j+4)
	stAt(a2, pg, j+8)
	stAt(a3, pg, j+12)
	clearUpper()
}

func addMulTLanes(z, w, d []float64) {
	m := len(z)
	n := m &^ 3
	pz, pw, pd := base(z), base(w), base(d)
	for j := 0; j < n; j += 4 {
		addMulT4(pz, pw, pd, len(d), m, j)
	}
	if n < m {
		tail := z[n:]
		acc := archsimd.LoadFloat64x4SlicePart(tail)
		for r, dr := range d {
			acc = acc.Add(bc(dr).Mul(archsimd.LoadFloat64x4SlicePart(w[r*m+n : (r+1)*m])))
		}
		acc.StoreSlicePart(tail)
	}
}

// addMulT4 is addMulTLanes for z[j:j+4], kept in a register over the rows
// (a function of its own, see dot4At).
//
//go:noinline
func addMulT4(pz, pw, pd unsafe.Pointer, rows, m, j int) {
	acc := ldAt(pz, j)
	for r := range rows {
		acc = acc.Add(bc(*at(pd, r)).Mul(ldAt(pw, r*m+j)))
	}
	stAt(acc, pz, j)
	clearUpper()
}

func lstmDeltaLanes(da, dh, carry, gates, tc, cp []float64) {
	H := len(dh)
	n4 := H &^ 3
	lstmDeltaAt(base(da), base(dh), base(carry), base(gates), base(tc), base(cp), H, n4)
	lstmDeltaScalar(da, dh, carry, gates, tc, cp, n4)
}

// lstmBackwardLanes is LSTMBackward for H ≥ 4: per step of the window one
// call for δa (lstmDeltaAt, then the scalar loop for the last H mod 4 units)
// and one for W_hhᵀ·δa (mulTAt, then the last H mod 4 entries by partial
// loads).
func lstmBackwardLanes(da, dh, carry, next, whh []float64, gates, tc, cp [][]float64) {
	H, w := len(dh), len(gates)
	n4 := H &^ 3
	pa, pk, pw := base(da), base(carry), base(whh)
	// W_hh's last H − n4 < 4 columns, the same at every step of the
	// window: loaded once, zero-padded quads, where 4H ≤ len(tail).
	var tail [64]f64x4
	padded := n4 < H && 4*H <= len(tail) && w > 1
	if padded {
		for r := range 4 * H {
			tail[r] = archsimd.LoadFloat64x4SlicePart(whh[r*H+n4 : (r+1)*H])
		}
	}
	for n := range w {
		pda := unsafe.Add(pa, 8*4*H*n)
		dan := da[n*4*H : (n+1)*4*H]
		lstmDeltaAt(pda, base(dh), pk, base(gates[n]), base(tc[n]), base(cp[n]), H, n4)
		if n4 < H {
			lstmDeltaScalar(dan, dh, carry, gates[n], tc[n], cp[n], n4)
		}
		if n < w-1 {
			mulTAt(base(next), pw, pda, 4*H, H, n4)
			if n4 < H {
				var acc f64x4
				if padded {
					for r, dr := range dan {
						acc = acc.Add(bc(dr).Mul(tail[r]))
					}
				} else {
					for r, dr := range dan {
						acc = acc.Add(bc(dr).Mul(archsimd.LoadFloat64x4SlicePart(whh[r*H+n4 : (r+1)*H])))
					}
				}
				acc.StoreSlicePart(next[n4:])
			}
			dh, next = next, dh
		}
	}
}

// lstmDeltaAt is LSTMDelta's lane loop over the first n4 (a multiple of 4)
// of H units, on base pointers (lstmDeltaLanes, lstmBackwardLanes).
//
//go:noinline
func lstmDeltaAt(pa, ph, pk, pg, pt, pc unsafe.Pointer, H, n4 int) {
	one := bc(1)
	for j := 0; j < n4; j += 4 {
		i, f, g, o := ldAt(pg, j), ldAt(pg, H+j), ldAt(pg, 2*H+j), ldAt(pg, 3*H+j)
		t, d := ldAt(pt, j), ldAt(ph, j)
		dc := d.Mul(o).Mul(one.Sub(t.Mul(t))).Add(ldAt(pk, j))
		do := d.Mul(t)
		stAt(dc.Mul(f), pk, j)
		stAt(dc.Mul(g).Mul(i).Mul(one.Sub(i)), pa, j)
		stAt(dc.Mul(ldAt(pc, j)).Mul(f).Mul(one.Sub(f)), pa, H+j)
		stAt(dc.Mul(i).Mul(one.Sub(g.Mul(g))), pa, 2*H+j)
		stAt(do.Mul(o).Mul(one.Sub(o)), pa, 3*H+j)
	}
	clearUpper()
}

// mulTAt sets z[:n4] = 0 + Wᵀ·d for W of rows rows of m entries (n4 ≤ m a
// multiple of 4), each quad of z summed in a register over the rows in
// order.
//
//go:noinline
func mulTAt(pz, pw, pd unsafe.Pointer, rows, m, n4 int) {
	for j := 0; j < n4; j += 4 {
		var acc f64x4
		pr := unsafe.Add(pw, 8*j)
		for r := range rows {
			acc = acc.Add(bc(*at(pd, r)).Mul(ldAt(pr, 0)))
			pr = unsafe.Add(pr, 8*m)
		}
		stAt(acc, pz, j)
	}
	clearUpper()
}

// sumWindowLanes is SumWindow's lane loop for the first n4 (a multiple of
// 4) entries of g.
func sumWindowLanes(g, d []float64, n4, w int) { sumWindowAt(base(g), base(d), n4, len(g), w) }

//go:noinline
func sumWindowAt(pg, pd unsafe.Pointer, n4, R, w int) {
	for r := 0; r < n4; r += 4 {
		acc := ldAt(pg, r)
		pr := unsafe.Add(pd, 8*r)
		for range w {
			acc = acc.Add(ldAt(pr, 0))
			pr = unsafe.Add(pr, 8*R)
		}
		stAt(acc, pg, r)
	}
	clearUpper()
}
