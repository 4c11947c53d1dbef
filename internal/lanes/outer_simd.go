//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// Tails shorter than four lanes go through partial loads and stores
// (the missing lanes read as 0 and are not written).

func outerLanes(g, d, x []float64) {
	m := len(x)
	xq := quads(x)
	n := 4 * len(xq)
	for r, dr := range d {
		vd := bc(dr)
		row := g[r*m : (r+1)*m]
		rq := quads(row)[:len(xq)]
		for k := range xq {
			load(&rq[k]).Add(vd.Mul(load(&xq[k]))).Store(&rq[k])
		}
		if n < m {
			archsimd.LoadFloat64x4SlicePart(row[n:]).Add(vd.Mul(archsimd.LoadFloat64x4SlicePart(x[n:]))).StoreSlicePart(row[n:])
		}
	}
}

func addMulTLanes(z, w, d []float64) {
	m := len(z)
	n := m &^ 3
	if m == 4 {
		// The common small case (H = 4) keeps z in a register.
		acc := archsimd.LoadFloat64x4Slice(z)
		for r, dr := range d {
			acc = acc.Add(bc(dr).Mul(archsimd.LoadFloat64x4Slice(w[r*4:])))
		}
		acc.StoreSlice(z)
		return
	}
	zq := quads(z)
	for r, dr := range d {
		vd := bc(dr)
		row := w[r*m : (r+1)*m]
		rq := quads(row)[:len(zq)]
		for k := range zq {
			load(&zq[k]).Add(vd.Mul(load(&rq[k]))).Store(&zq[k])
		}
		if n < m {
			archsimd.LoadFloat64x4SlicePart(z[n:]).Add(vd.Mul(archsimd.LoadFloat64x4SlicePart(row[n:]))).StoreSlicePart(z[n:])
		}
	}
}
