//go:build goexperiment.simd && amd64

package f32step

import (
	"fmt"
	"simd/archsimd"
	"unsafe"
)

// OuterSum32 is lanes.OuterSum in float32 for T-BPTT's input weights:
//
//	g[r·m+j] += Σ_n d[n·R+r]·x[n][j]      R = len(d)/len(x) rows of m
//
// the n in order, with fused multiply-adds. R must be a multiple of 4,
// every x[n] must hold Padded(m) entries, zero after the first m, and g at
// least R·m + 8 entries: a row's last octet spills into the next row's
// first entries (or past the matrix) and adds zeros there.
func OuterSum32(g, d []float32, x [][]float32, m int) {
	w := len(x)
	if w == 0 {
		return
	}
	R := len(d) / w
	if R*w != len(d) || R%4 != 0 || m < 8 || len(g) < R*m+8 {
		panic(fmt.Sprintf("f32step: OuterSum32 of %d vectors with %d coefficients, %d inputs, into %d entries", w, len(d), m, len(g)))
	}
	for _, xn := range x {
		if len(xn) < Padded(m) {
			panic(fmt.Sprintf("f32step: OuterSum32 vector of length %d, want %d", len(xn), Padded(m)))
		}
		for _, v := range xn[m:Padded(m)] {
			if v != 0 {
				panic("f32step: OuterSum32 with nonzero padding of its input")
			}
		}
	}
	pd := base(d)
	n16 := m &^ 15
	for r := 0; r < R; r += 4 {
		pg := unsafe.Add(base(g), 4*r*m)
		for j := 0; j < n16; j += 16 {
			outer4x16(pg, pd, x, R, r, m, j)
		}
		for j := n16; j < m; j += 8 {
			outer4x8(pg, pd, x, R, r, m, j)
		}
	}
	archsimd.ClearAVXUpperBits()
}

// outer4x16 adds the window's products to the entries j..j+15 of the rows
// r..r+3 (pg the address of row r, rows m apart), the sums in registers
// across the window.
//
//go:noinline
func outer4x16(pg, pd unsafe.Pointer, x [][]float32, R, r, m, j int) {
	p1, p2, p3 := unsafe.Add(pg, 4*m), unsafe.Add(pg, 8*m), unsafe.Add(pg, 12*m)
	a00, a01 := ldAt(pg, j), ldAt(pg, j+8)
	a10, a11 := ldAt(p1, j), ldAt(p1, j+8)
	a20, a21 := ldAt(p2, j), ldAt(p2, j+8)
	a30, a31 := ldAt(p3, j), ldAt(p3, j+8)
	dn := unsafe.Add(pd, 4*r)
	for _, xn := range x {
		px := unsafe.Add(base(xn), 4*j)
		x0, x1 := ldAt(px, 0), ldAt(px, 8)
		dq := (*[4]float32)(dn)
		v := bc(dq[0])
		a00, a01 = v.MulAdd(x0, a00), v.MulAdd(x1, a01)
		v = bc(dq[1])
		a10, a11 = v.MulAdd(x0, a10), v.MulAdd(x1, a11)
		v = bc(dq[2])
		a20, a21 = v.MulAdd(x0, a20), v.MulAdd(x1, a21)
		v = bc(dq[3])
		a30, a31 = v.MulAdd(x0, a30), v.MulAdd(x1, a31)
		dn = unsafe.Add(dn, 4*R)
	}
	stAt(a00, pg, j)
	stAt(a01, pg, j+8)
	stAt(a10, p1, j)
	stAt(a11, p1, j+8)
	stAt(a20, p2, j)
	stAt(a21, p2, j+8)
	stAt(a30, p3, j)
	stAt(a31, p3, j+8)
}

// outer4x8 is outer4x16 for the entries j..j+7.
//
//go:noinline
func outer4x8(pg, pd unsafe.Pointer, x [][]float32, R, r, m, j int) {
	p1, p2, p3 := unsafe.Add(pg, 4*m), unsafe.Add(pg, 8*m), unsafe.Add(pg, 12*m)
	a0, a1, a2, a3 := ldAt(pg, j), ldAt(p1, j), ldAt(p2, j), ldAt(p3, j)
	dn := unsafe.Add(pd, 4*r)
	for _, xn := range x {
		x0 := ldAt(base(xn), j)
		dq := (*[4]float32)(dn)
		a0 = bc(dq[0]).MulAdd(x0, a0)
		a1 = bc(dq[1]).MulAdd(x0, a1)
		a2 = bc(dq[2]).MulAdd(x0, a2)
		a3 = bc(dq[3]).MulAdd(x0, a3)
		dn = unsafe.Add(dn, 4*R)
	}
	stAt(a0, pg, j)
	stAt(a1, p1, j)
	stAt(a2, p2, j)
	stAt(a3, p3, j)
}

// RMSPropFold32 is lanes.RMSPropFold in float32: RMSProp32Shared's step
// with direction u, then u ← d·u + c·t (T-BPTT's eligibility trace taking
// the new gradient t), in one pass.
func RMSPropFold32(theta, u, v, t []float32, s, alpha, b, eps, d, c float64) {
	n := len(u)
	if len(theta) < n || len(v) < n || len(t) < n || n < 8 {
		panic(fmt.Sprintf("f32step: RMSPropFold32 of %d entries with θ %d, v %d, t %d", n, len(theta), len(v), len(t)))
	}
	rmspropFold32At(base(theta), base(u), base(v), base(t), n, float32(s), float32(alpha), float32(b), float32(1-b),
		float32(eps), float32(d), float32(c))
	archsimd.ClearAVXUpperBits()
}

//go:noinline
func rmspropFold32At(pt, pu, pv, ptr unsafe.Pointer, n int, s, alpha, b, c, eps, d, k float32) {
	vs, vb, vc, va, ve, vd, vk := bc(s), bc(b), bc(c), bc(alpha), bc(eps), bc(d), bc(k)
	n8 := n &^ 7
	// The last octet from the old values (see RMSProp32).
	lu := ldAt(pu, n-8)
	g := vs.Mul(lu)
	lv := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, n-8)))
	lt := ldAt(pt, n-8).Add(va.Mul(g).Div(lv.Sqrt().Add(ve)))
	lz := vd.MulAdd(lu, vk.Mul(ldAt(ptr, n-8)))
	i := 0
	for ; i+16 <= n8; i += 16 {
		u0, u1 := ldAt(pu, i), ldAt(pu, i+8)
		stAt(vd.MulAdd(u0, vk.Mul(ldAt(ptr, i))), pu, i)
		stAt(vd.MulAdd(u1, vk.Mul(ldAt(ptr, i+8))), pu, i+8)
		g0, g1 := vs.Mul(u0), vs.Mul(u1)
		v0 := vc.Mul(g0).MulAdd(g0, vb.Mul(ldAt(pv, i)))
		v1 := vc.Mul(g1).MulAdd(g1, vb.Mul(ldAt(pv, i+8)))
		stAt(v0, pv, i)
		stAt(v1, pv, i+8)
		a0, a1 := v0.Sqrt().Add(ve), v1.Sqrt().Add(ve)
		inv := va.Div(a0.Mul(a1))
		stAt(ldAt(pt, i).Add(g0.Mul(a1).Mul(inv)), pt, i)
		stAt(ldAt(pt, i+8).Add(g1.Mul(a0).Mul(inv)), pt, i+8)
	}
	if i < n8 {
		u0 := ldAt(pu, i)
		stAt(vd.MulAdd(u0, vk.Mul(ldAt(ptr, i))), pu, i)
		g := vs.Mul(u0)
		vi := vc.Mul(g).MulAdd(g, vb.Mul(ldAt(pv, i)))
		stAt(vi, pv, i)
		stAt(ldAt(pt, i).Add(va.Mul(g).Div(vi.Sqrt().Add(ve))), pt, i)
	}
	stAt(lv, pv, n-8)
	stAt(lt, pt, n-8)
	stAt(lz, pu, n-8)
}
