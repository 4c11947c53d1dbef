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
	for r := range R {
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
		if n4 < m {
			row := g[r*m+n4 : (r+1)*m]
			acc := archsimd.LoadFloat64x4SlicePart(row)
			for n := range x {
				acc = acc.Add(bc(*at(pd, n*R+r)).Mul(archsimd.LoadFloat64x4SlicePart(x[n][n4:])))
			}
			acc.StoreSlicePart(row)
		}
	}
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
}

//go:noinline
func outerSum4(pg, pd unsafe.Pointer, x [][]float64, R, r, j int) {
	a0 := ldAt(pg, j)
	for n, xn := range x {
		a0 = a0.Add(bc(*at(pd, n*R+r)).Mul(ldAt(base(xn), j)))
	}
	stAt(a0, pg, j)
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
}

func lstmDeltaLanes(da, dh, carry, gates, tc, cp []float64) {
	H := len(dh)
	n4 := H &^ 3
	one := bc(1)
	pa, ph, pk, pg, pt, pc := base(da), base(dh), base(carry), base(gates), base(tc), base(cp)
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
	lstmDeltaScalar(da, dh, carry, gates, tc, cp, n4)
}
