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
// the partial sums added pairwise.
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
