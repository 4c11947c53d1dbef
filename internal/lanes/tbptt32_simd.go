//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// The float32 lane helpers of T-BPTT's float32 kernels (tbptt32.go,
// outer32.go): eight float32 lanes per 256-bit register.

func tbBc(x float32) archsimd.Float32x8 { return archsimd.BroadcastFloat32x8(x) }

func tbBase(s []float32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// tbLd loads p[i:i+8] of float32s; tbSt stores v there. The caller
// guarantees i+8 ≤ len.
func tbLd(p unsafe.Pointer, i int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, 4*i)))
}

func tbSt(v archsimd.Float32x8, p unsafe.Pointer, i int) { v.Store((*[8]float32)(unsafe.Add(p, 4*i))) }

func dot4x32Lanes(a *[4]float32, w, x []float32) {
	m := len(x)
	archsimd.LoadFloat32x4(a).Add(dot4x32(w, x, m)).Store(a)
}

// dot4x32 returns the dot products of the four rows w[q·m:(q+1)·m] with x
// (m ≥ 8), row order in the lanes: eight partial sums per row (k mod 8),
// the last m mod 8 entries by partial loads (their missing lanes 0), then
// the partial sums added pairwise. With m mod 8 ≥ 4, dot4x32Quads takes
// the last m mod 8 entries instead.
//
//go:noinline
func dot4x32(w, x []float32, m int) archsimd.Float32x4 {
	p0, px := tbBase(w), tbBase(x)
	p1, p2, p3 := unsafe.Add(p0, 4*m), unsafe.Add(p0, 8*m), unsafe.Add(p0, 12*m)
	var s0, s1, s2, s3 archsimd.Float32x8
	m8 := m &^ 7
	for k := 0; k < m8; k += 8 {
		xv := tbLd(px, k)
		s0 = tbLd(p0, k).MulAdd(xv, s0)
		s1 = tbLd(p1, k).MulAdd(xv, s1)
		s2 = tbLd(p2, k).MulAdd(xv, s2)
		s3 = tbLd(p3, k).MulAdd(xv, s3)
	}
	if m-m8 >= 4 {
		return dot4x32Quads(s0, s1, s2, s3, p0, p1, p2, p3, px, x, m8, m)
	}
	if m8 < m {
		xv := archsimd.LoadFloat32x8SlicePart(x[m8:])
		s0 = archsimd.LoadFloat32x8SlicePart(w[m8:m]).MulAdd(xv, s0)
		s1 = archsimd.LoadFloat32x8SlicePart(w[m+m8:2*m]).MulAdd(xv, s1)
		s2 = archsimd.LoadFloat32x8SlicePart(w[2*m+m8:3*m]).MulAdd(xv, s2)
		s3 = archsimd.LoadFloat32x8SlicePart(w[3*m+m8:4*m]).MulAdd(xv, s3)
	}
	t := s0.AddPairsGrouped(s1).AddPairsGrouped(s2.AddPairsGrouped(s3))
	return t.GetLo().Add(t.GetHi())
}

// addMulT32Lanes is AddMulT32's lane path: each octet of z summed in a
// register over the rows in order, the last n mod 8 entries by partial
// loads and stores.
func addMulT32Lanes(z, w, d []float32) {
	n := len(z)
	n8 := n &^ 7
	pz, pw := tbBase(z), tbBase(w)
	for j := 0; j < n8; j += 8 {
		acc := tbLd(pz, j)
		pr := unsafe.Add(pw, 4*j)
		for _, dr := range d {
			acc = tbBc(dr).MulAdd(tbLd(pr, 0), acc)
			pr = unsafe.Add(pr, 4*n)
		}
		tbSt(acc, pz, j)
	}
	if n8 < n {
		tail := z[n8:]
		acc := archsimd.LoadFloat32x8SlicePart(tail)
		for r, dr := range d {
			acc = tbBc(dr).MulAdd(archsimd.LoadFloat32x8SlicePart(w[r*n+n8:(r+1)*n]), acc)
		}
		acc.StoreSlicePart(tail)
	}
}

// dot4x32Quads ends dot4x32 when m mod 8 ≥ 4: each row's eight partial
// sums s_q folded into four (its halves added), the entries m8..m8+3
// added by a fused multiply-add of a whole quad, the last m mod 4 by
// partial loads, then the four partial sums of each row added pairwise.
func dot4x32Quads(s0, s1, s2, s3 tb8, p0, p1, p2, p3, px unsafe.Pointer, x []float32, m8, m int) tb4 {
	xq := tbLd4(px, m8)
	u0 := tbLd4(p0, m8).MulAdd(xq, s0.GetLo().Add(s0.GetHi()))
	u1 := tbLd4(p1, m8).MulAdd(xq, s1.GetLo().Add(s1.GetHi()))
	u2 := tbLd4(p2, m8).MulAdd(xq, s2.GetLo().Add(s2.GetHi()))
	u3 := tbLd4(p3, m8).MulAdd(xq, s3.GetLo().Add(s3.GetHi()))
	if k := m8 + 4; k < m {
		n := m - k
		xr := archsimd.LoadFloat32x4SlicePart(x[k:])
		u0 = archsimd.LoadFloat32x4SlicePart(unsafe.Slice((*float32)(unsafe.Add(p0, 4*k)), n)).MulAdd(xr, u0)
		u1 = archsimd.LoadFloat32x4SlicePart(unsafe.Slice((*float32)(unsafe.Add(p1, 4*k)), n)).MulAdd(xr, u1)
		u2 = archsimd.LoadFloat32x4SlicePart(unsafe.Slice((*float32)(unsafe.Add(p2, 4*k)), n)).MulAdd(xr, u2)
		u3 = archsimd.LoadFloat32x4SlicePart(unsafe.Slice((*float32)(unsafe.Add(p3, 4*k)), n)).MulAdd(xr, u3)
	}
	return u0.AddPairs(u1).AddPairs(u2.AddPairs(u3))
}

// dot4x32Rows4 is Dot4x32's lane path at m = 4: the four rows' products
// with x, each row's four added pairwise, added to a.
func dot4x32Rows4(a *[4]float32, w, x []float32) {
	pw := tbBase(w[:16])
	xv := tbLd4(tbBase(x[:4]), 0)
	u0, u1 := tbLd4(pw, 0).Mul(xv), tbLd4(pw, 4).Mul(xv)
	u2, u3 := tbLd4(pw, 8).Mul(xv), tbLd4(pw, 12).Mul(xv)
	archsimd.LoadFloat32x4(a).Add(u0.AddPairs(u1).AddPairs(u2.AddPairs(u3))).Store(a)
}

// outer32x4x4 is outer32x4x8 for the entries j..j+3 of the rows r..r+3,
// a quad register per row.
//
//go:noinline
func outer32x4x4(pg, pd unsafe.Pointer, x [][]float32, R, r, m, j int, set bool) {
	p1, p2, p3 := unsafe.Add(pg, 4*m), unsafe.Add(pg, 8*m), unsafe.Add(pg, 12*m)
	var a0, a1, a2, a3 tb4
	if !set {
		a0, a1, a2, a3 = tbLd4(pg, j), tbLd4(p1, j), tbLd4(p2, j), tbLd4(p3, j)
	}
	dn := unsafe.Add(pd, 4*r)
	for _, xn := range x {
		x0 := tbLd4(tbBase(xn), j)
		dq := (*[4]float32)(dn)
		a0 = archsimd.BroadcastFloat32x4(dq[0]).MulAdd(x0, a0)
		a1 = archsimd.BroadcastFloat32x4(dq[1]).MulAdd(x0, a1)
		a2 = archsimd.BroadcastFloat32x4(dq[2]).MulAdd(x0, a2)
		a3 = archsimd.BroadcastFloat32x4(dq[3]).MulAdd(x0, a3)
		dn = unsafe.Add(dn, 4*R)
	}
	tbSt4(a0, pg, j)
	tbSt4(a1, p1, j)
	tbSt4(a2, p2, j)
	tbSt4(a3, p3, j)
	clearUpper()
}
