//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// Tails shorter than four lanes go through partial loads and stores
// (the missing lanes read as 0 and are not written).

func outerLanes(g, d, x []float64) {
	m := len(x)
	n := m &^ 3
	for r, dr := range d {
		vd := bc(dr)
		row := g[r*m : (r+1)*m]
		for j := 0; j < n; j += 4 {
			archsimd.LoadFloat64x4Slice(row[j:]).Add(vd.Mul(archsimd.LoadFloat64x4Slice(x[j:]))).StoreSlice(row[j:])
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
	for r, dr := range d {
		vd := bc(dr)
		row := w[r*m : (r+1)*m]
		for j := 0; j < n; j += 4 {
			archsimd.LoadFloat64x4Slice(z[j:]).Add(vd.Mul(archsimd.LoadFloat64x4Slice(row[j:]))).StoreSlice(z[j:])
		}
		if n < m {
			archsimd.LoadFloat64x4SlicePart(z[n:]).Add(vd.Mul(archsimd.LoadFloat64x4SlicePart(row[n:]))).StoreSlicePart(z[n:])
		}
	}
}
