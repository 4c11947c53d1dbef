//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// outerSum32Lanes is OuterSum32's lane path: blocks of four rows by sixteen
// or eight entries with their sums in registers across the window (each
// octet of x loaded once for the four rows, each coefficient broadcast once
// per two octets), single rows for the last R mod 4. With m ≥ 8 a block's
// last m mod 8 entries take the octet ending at the rows' end, summed
// before the other octets (from the entries' old values) and stored after
// them: the entries it shares with the last whole octet get the same sums
// in the same order, so the same bits. With m < 8 (outer32x4Part), and for
// the single rows, the last m mod 8 entries go by partial loads and stores.
func outerSum32Lanes(g, d []float32, x [][]float32, R, m int, set bool) {
	n8 := m &^ 7
	pd := tbBase(d)
	// Declared outside the loop: zeroing it in every iteration took legacy-SSE
	// stores between the vector code (doc.go); outer32x4x8 writes it whole.
	var last [4][8]float32
	r := 0
	for ; r+4 <= R; r += 4 {
		pg := tbBase(g[r*m : (r+4)*m])
		if m%8 == 4 && m >= 12 {
			// Octets up to the last four entries, then a quad.
			j := 0
			for ; j+16 <= n8; j += 16 {
				outer32x4x16(pg, pd, x, R, r, m, j, set)
			}
			if j < n8 {
				outer32x4x8(pg, pd, x, R, r, m, j, set, nil)
			}
			outer32x4x4(pg, pd, x, R, r, m, n8, set)
			continue
		}
		if n8 < m && m >= 8 {
			outer32x4x8(pg, pd, x, R, r, m, m-8, set, &last)
		}
		j := 0
		for ; j+16 <= n8; j += 16 {
			outer32x4x16(pg, pd, x, R, r, m, j, set)
		}
		if j < n8 {
			outer32x4x8(pg, pd, x, R, r, m, j, set, nil)
		}
		if n8 < m && m >= 8 {
			for q := range 4 {
				copy(g[(r+q+1)*m-8:(r+q+1)*m], last[q][:])
			}
		}
		if m < 8 {
			outer32x4Part(g, d, x, R, r, m, set)
		}
	}
	tail := r // the first row whose last m mod 8 entries are left
	for ; r < R; r++ {
		pg := tbBase(g[r*m : (r+1)*m])
		for j := 0; j < n8; j += 8 {
			acc := tbLd(pg, j)
			if set {
				acc = archsimd.Float32x8{}
			}
			for n, xn := range x {
				acc = tbBc(d[n*R+r]).MulAdd(tbLd(tbBase(xn), j), acc)
			}
			tbSt(acc, pg, j)
		}
	}
	if n8 < m {
		for r := tail; r < R; r++ {
			row := g[r*m+n8 : (r+1)*m]
			acc := archsimd.LoadFloat32x8SlicePart(row)
			if set {
				acc = archsimd.Float32x8{}
			}
			for n := range x {
				acc = tbBc(d[n*R+r]).MulAdd(archsimd.LoadFloat32x8SlicePart(x[n][n8:]), acc)
			}
			acc.StoreSlicePart(row)
		}
	}
}

// outer32x4x16 adds the window's products to the entries j..j+15 of the
// rows r..r+3 (pg the address of row r, rows m apart).
//
//go:noinline
func outer32x4x16(pg, pd unsafe.Pointer, x [][]float32, R, r, m, j int, set bool) {
	p1, p2, p3 := unsafe.Add(pg, 4*m), unsafe.Add(pg, 8*m), unsafe.Add(pg, 12*m)
	var z archsimd.Float32x8
	a00, a01, a10, a11, a20, a21, a30, a31 := z, z, z, z, z, z, z, z
	if !set {
		a00, a01 = tbLd(pg, j), tbLd(pg, j+8)
		a10, a11 = tbLd(p1, j), tbLd(p1, j+8)
		a20, a21 = tbLd(p2, j), tbLd(p2, j+8)
		a30, a31 = tbLd(p3, j), tbLd(p3, j+8)
	}
	dn := unsafe.Add(pd, 4*r)
	for _, xn := range x {
		px := unsafe.Add(tbBase(xn), 4*j)
		x0, x1 := tbLd(px, 0), tbLd(px, 8)
		dq := (*[4]float32)(dn)
		v := tbBc(dq[0])
		a00, a01 = v.MulAdd(x0, a00), v.MulAdd(x1, a01)
		v = tbBc(dq[1])
		a10, a11 = v.MulAdd(x0, a10), v.MulAdd(x1, a11)
		v = tbBc(dq[2])
		a20, a21 = v.MulAdd(x0, a20), v.MulAdd(x1, a21)
		v = tbBc(dq[3])
		a30, a31 = v.MulAdd(x0, a30), v.MulAdd(x1, a31)
		dn = unsafe.Add(dn, 4*R)
	}
	tbSt(a00, pg, j)
	tbSt(a01, pg, j+8)
	tbSt(a10, p1, j)
	tbSt(a11, p1, j+8)
	tbSt(a20, p2, j)
	tbSt(a21, p2, j+8)
	tbSt(a30, p3, j)
	tbSt(a31, p3, j+8)
	clearUpper()
}

// outer32x4Part is outer32x4x8 for rows of m < 8 entries, by partial
// loads and stores: each x[n] loaded once for the four rows r..r+3.
func outer32x4Part(g, d []float32, x [][]float32, R, r, m int, set bool) {
	g0, g1, g2, g3 := g[r*m:(r+1)*m], g[(r+1)*m:(r+2)*m], g[(r+2)*m:(r+3)*m], g[(r+3)*m:(r+4)*m]
	var a0, a1, a2, a3 archsimd.Float32x8
	if !set {
		a0, a1 = archsimd.LoadFloat32x8SlicePart(g0), archsimd.LoadFloat32x8SlicePart(g1)
		a2, a3 = archsimd.LoadFloat32x8SlicePart(g2), archsimd.LoadFloat32x8SlicePart(g3)
	}
	for n, xn := range x {
		x0 := archsimd.LoadFloat32x8SlicePart(xn)
		dq := d[n*R+r : n*R+r+4]
		a0 = tbBc(dq[0]).MulAdd(x0, a0)
		a1 = tbBc(dq[1]).MulAdd(x0, a1)
		a2 = tbBc(dq[2]).MulAdd(x0, a2)
		a3 = tbBc(dq[3]).MulAdd(x0, a3)
	}
	a0.StoreSlicePart(g0)
	a1.StoreSlicePart(g1)
	a2.StoreSlicePart(g2)
	a3.StoreSlicePart(g3)
}

// outer32x4x8 is outer32x4x16 for the entries j..j+7, its sums stored into
// the rows, or into last when last is not nil (the octet ending at the rows'
// end, j = m−8, stored after the rows' other octets).
//
//go:noinline
func outer32x4x8(pg, pd unsafe.Pointer, x [][]float32, R, r, m, j int, set bool, last *[4][8]float32) {
	p1, p2, p3 := unsafe.Add(pg, 4*m), unsafe.Add(pg, 8*m), unsafe.Add(pg, 12*m)
	var a0, a1, a2, a3 archsimd.Float32x8
	if !set {
		a0, a1, a2, a3 = tbLd(pg, j), tbLd(p1, j), tbLd(p2, j), tbLd(p3, j)
	}
	dn := unsafe.Add(pd, 4*r)
	for _, xn := range x {
		x0 := tbLd(tbBase(xn), j)
		dq := (*[4]float32)(dn)
		a0 = tbBc(dq[0]).MulAdd(x0, a0)
		a1 = tbBc(dq[1]).MulAdd(x0, a1)
		a2 = tbBc(dq[2]).MulAdd(x0, a2)
		a3 = tbBc(dq[3]).MulAdd(x0, a3)
		dn = unsafe.Add(dn, 4*R)
	}
	if last != nil {
		a0.Store(&last[0])
		a1.Store(&last[1])
		a2.Store(&last[2])
		a3.Store(&last[3])
		clearUpper()
		return
	}
	tbSt(a0, pg, j)
	tbSt(a1, p1, j)
	tbSt(a2, p2, j)
	tbSt(a3, p3, j)
	clearUpper()
}
