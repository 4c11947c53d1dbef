//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

func dot4Lanes(a *[4]float64, w, x []float64) {
	archsimd.LoadFloat64x4(a).Add(dot4(w, x)).Store(a)
}

// dot4 returns the four dot products of the rows w[q·m:(q+1)·m] with x
// (m = len(x)): four partial sums per row over the quads of x (dot4At),
// then the tail with partial loads, then the partial sums added up.
func dot4(w, x []float64) f64x4 {
	m := len(x)
	n4 := m &^ 3
	s0, s1, s2, s3 := dot4At(base(w), base(x), m, n4)
	if n4 < m {
		xv := archsimd.LoadFloat64x4SlicePart(x[n4:])
		s0 = archsimd.LoadFloat64x4SlicePart(w[n4:m]).MulAdd(xv, s0)
		s1 = archsimd.LoadFloat64x4SlicePart(w[m+n4:2*m]).MulAdd(xv, s1)
		s2 = archsimd.LoadFloat64x4SlicePart(w[2*m+n4:3*m]).MulAdd(xv, s2)
		s3 = archsimd.LoadFloat64x4SlicePart(w[3*m+n4:4*m]).MulAdd(xv, s3)
	}
	// [s0₀+s0₁, s1₀+s1₁, s0₂+s0₃, s1₂+s1₃] and the same for rows 2, 3;
	// then the low halves plus the high halves give the four row sums.
	t01 := s0.AddPairsGrouped(s1)
	t23 := s2.AddPairsGrouped(s3)
	return t01.Select128FromPair(0, 2, t23).Add(t01.Select128FromPair(1, 3, t23))
}

func scaleAddLanes(z []float64, d, c float64, t []float64) {
	n := len(z) &^ 3
	if n > 0 {
		scaleAddAt(base(z), base(t), n, d, c)
	}
	for i := n; i < len(z); i++ {
		z[i] = d*z[i] + c*t[i]
	}
}

// scaleAddAt is the loop of scaleAddLanes over the first n (a multiple of
// 4) entries (a function of its own, see dot4At).
//
//go:noinline
func scaleAddAt(pz, pt unsafe.Pointer, n int, d, c float64) {
	vd, vc := bc(d), bc(c)
	for k := 0; k < n; k += 4 {
		stAt(vd.Mul(ldAt(pz, k)).Add(vc.Mul(ldAt(pt, k))), pz, k)
	}
	clearUpper()
}

func addScaledLanes(z []float64, c float64, t []float64) {
	vc := bc(c)
	zq := quads(z)
	tq := quads(t)[:len(zq)]
	for k := range zq {
		load(&zq[k]).Add(vc.Mul(load(&tq[k]))).Store(&zq[k])
	}
	// The tail in lanes loaded and stored in part: in scalar code, the spill
	// of c around a VZEROUPPER was itself a legacy-SSE move (doc.go).
	if n := 4 * len(zq); n < len(z) {
		zt := archsimd.LoadFloat64x4SlicePart(z[n:])
		zt.Add(vc.Mul(archsimd.LoadFloat64x4SlicePart(t[n:len(z)]))).StoreSlicePart(z[n:])
	}
}

func scaleLanes(z []float64, c float64, t []float64) {
	n := len(z) &^ 3
	if n > 0 {
		scaleAt(base(z), base(t), n, c)
	}
	for i := n; i < len(z); i++ {
		z[i] = c*t[i] + 0
	}
}

// scaleAt is the loop of scaleLanes over the first n (a multiple of 4)
// entries (a function of its own, see dot4At).
//
//go:noinline
func scaleAt(pz, pt unsafe.Pointer, n int, c float64) {
	vc, zero := bc(c), ld(&kZero)
	for k := 0; k < n; k += 4 {
		stAt(vc.Mul(ldAt(pt, k)).Add(zero), pz, k)
	}
	clearUpper()
}

// scaleAddBlocksLanes is ScaleAddBlocks with blocks of n entries: one loop
// over all blocks when n is a multiple of 4 (a network's column blocks,
// 4m+8 entries), else scaleAddLanes block by block.
func scaleAddBlocksLanes(z []float64, d float64, c, t []float64, n int) {
	if n%4 == 0 && n > 0 {
		scaleAddBlocksAt(base(z), base(t), base(c), len(c), n, d)
		return
	}
	for j, cj := range c {
		scaleAddLanes(z[j*n:(j+1)*n], d, cj, t[j*n:(j+1)*n])
	}
}

// scaleAddBlocksAt is the loop of scaleAddBlocksLanes over nb blocks of n
// entries (n a multiple of 4), two quads per step (a function of its own,
// see dot4At). Its pointers move along a block but never past its last
// quad (Go pointers must not point beyond their allocation).
//
//go:noinline
func scaleAddBlocksAt(pz, pt, pc unsafe.Pointer, nb, n int, d float64) {
	vd := bc(d)
	for j := range nb {
		vc := bc(*at(pc, j))
		z, t := unsafe.Add(pz, 8*n*j), unsafe.Add(pt, 8*n*j)
		if n%8 != 0 {
			stAt(vd.Mul(ldAt(z, 0)).Add(vc.Mul(ldAt(t, 0))), z, 0)
			if n == 4 {
				continue
			}
			z, t = unsafe.Add(z, 32), unsafe.Add(t, 32)
		}
		for i := n / 8; ; {
			stAt(vd.Mul(ldAt(z, 0)).Add(vc.Mul(ldAt(t, 0))), z, 0)
			stAt(vd.Mul(ldAt(z, 4)).Add(vc.Mul(ldAt(t, 4))), z, 4)
			if i--; i == 0 {
				break
			}
			z, t = unsafe.Add(z, 64), unsafe.Add(t, 64)
		}
	}
	clearUpper()
}

// scaleBlocksLanes is ScaleBlocks, organized as scaleAddBlocksLanes.
func scaleBlocksLanes(z, c, t []float64, n int) {
	if n%4 == 0 && n > 0 {
		scaleBlocksAt(base(z), base(t), base(c), len(c), n)
		return
	}
	for j, cj := range c {
		scaleLanes(z[j*n:(j+1)*n], cj, t[j*n:(j+1)*n])
	}
}

// scaleBlocksAt is the loop of scaleBlocksLanes, organized as
// scaleAddBlocksAt.
//
//go:noinline
func scaleBlocksAt(pz, pt, pc unsafe.Pointer, nb, n int) {
	zero := ld(&kZero)
	for j := range nb {
		vc := bc(*at(pc, j))
		z, t := unsafe.Add(pz, 8*n*j), unsafe.Add(pt, 8*n*j)
		if n%8 != 0 {
			stAt(vc.Mul(ldAt(t, 0)).Add(zero), z, 0)
			if n == 4 {
				continue
			}
			z, t = unsafe.Add(z, 32), unsafe.Add(t, 32)
		}
		for i := n / 8; ; {
			stAt(vc.Mul(ldAt(t, 0)).Add(zero), z, 0)
			stAt(vc.Mul(ldAt(t, 4)).Add(zero), z, 4)
			if i--; i == 0 {
				break
			}
			z, t = unsafe.Add(z, 64), unsafe.Add(t, 64)
		}
	}
	clearUpper()
}
