//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

func dot4Lanes(a *[4]float64, w, x []float64) {
	m := len(x)
	w0, w1, w2, w3 := w[:m], w[m:2*m], w[2*m:3*m], w[3*m:4*m]
	var s0, s1, s2, s3 f64x4
	xq := quads(x)
	q0, q1, q2, q3 := quads(w0)[:len(xq)], quads(w1)[:len(xq)], quads(w2)[:len(xq)], quads(w3)[:len(xq)]
	for k := range xq {
		xv := load(&xq[k])
		s0 = load(&q0[k]).MulAdd(xv, s0)
		s1 = load(&q1[k]).MulAdd(xv, s1)
		s2 = load(&q2[k]).MulAdd(xv, s2)
		s3 = load(&q3[k]).MulAdd(xv, s3)
	}
	n := 4 * len(xq)
	if n < m {
		xv := archsimd.LoadFloat64x4SlicePart(x[n:])
		s0 = archsimd.LoadFloat64x4SlicePart(w0[n:]).MulAdd(xv, s0)
		s1 = archsimd.LoadFloat64x4SlicePart(w1[n:]).MulAdd(xv, s1)
		s2 = archsimd.LoadFloat64x4SlicePart(w2[n:]).MulAdd(xv, s2)
		s3 = archsimd.LoadFloat64x4SlicePart(w3[n:]).MulAdd(xv, s3)
	}
	// [s0₀+s0₁, s1₀+s1₁, s0₂+s0₃, s1₂+s1₃] and the same for rows 2, 3;
	// then the low halves plus the high halves give the four row sums.
	t01 := s0.AddPairsGrouped(s1)
	t23 := s2.AddPairsGrouped(s3)
	sum := t01.Select128FromPair(0, 2, t23).Add(t01.Select128FromPair(1, 3, t23))
	archsimd.LoadFloat64x4(a).Add(sum).Store(a)
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
}

func addScaledLanes(z []float64, c float64, t []float64) {
	vc := bc(c)
	zq := quads(z)
	tq := quads(t)[:len(zq)]
	for k := range zq {
		load(&zq[k]).Add(vc.Mul(load(&tq[k]))).Store(&zq[k])
	}
	n := 4 * len(zq)
	for i := n; i < len(z); i++ {
		z[i] += c * t[i]
	}
}
