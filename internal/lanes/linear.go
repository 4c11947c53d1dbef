package lanes

import "fmt"

// Dot4 adds to a[q] the dot product of row q of w with x, for the four rows
// of w (each len(x) long, stored one after the other):
//
//	a[q] += Σ_k w[q·m+k]·x[k]      q = 0..3, m = len(x)
//
// The scalar path adds the products in order k = 0, 1, ...; the lane path
// keeps four partial sums per row (k mod 4) with fused multiply-adds and adds
// them at the end, so the two paths differ in the last bits.
func Dot4(a *[4]float64, w, x []float64) {
	m := len(x)
	w = w[:4*m]
	if useLanes {
		dot4Lanes(a, w, x)
		clearUpper()
		return
	}
	dot4Scalar(a, w, x)
}

// ScaleAdd sets z ← d·z + c·t element-wise (len(t) ≥ len(z)). Both paths
// perform the same operations and agree bitwise.
func ScaleAdd(z []float64, d, c float64, t []float64) {
	t = t[:len(z)]
	if useLanes {
		scaleAddLanes(z, d, c, t)
		clearUpper()
		return
	}
	for i, ti := range t {
		z[i] = d*z[i] + c*ti
	}
}

// AddScaled sets z ← z + c·t element-wise (len(t) ≥ len(z)). Both paths
// perform the same operations and agree bitwise.
func AddScaled(z []float64, c float64, t []float64) {
	t = t[:len(z)]
	if useLanes && len(z) >= 4 {
		addScaledLanes(z, c, t)
		clearUpper()
		return
	}
	for i, ti := range t {
		z[i] += c * ti
	}
}

// ScaleAddBlocks is ScaleAdd block by block with a coefficient per block:
// z and t hold len(c) blocks of n = len(z)/len(c) entries, and
//
//	z[j·n+i] ← d·z[j·n+i] + c[j]·t[j·n+i]
//
// Both paths perform the same operations as ScaleAdd and agree bitwise.
func ScaleAddBlocks(z []float64, d float64, c, t []float64) {
	n := checkBlocks("ScaleAddBlocks", z, c, t)
	if useLanes {
		scaleAddBlocksLanes(z, d, c, t, n)
		clearUpper()
		return
	}
	for j, cj := range c {
		zj, tj := z[j*n:(j+1)*n], t[j*n:(j+1)*n]
		for i, ti := range tj {
			zj[i] = d*zj[i] + cj*ti
		}
	}
}

// ScaleBlocks writes block j of c[j]·t into z (blocks as in ScaleAddBlocks),
// without reading z:
//
//	z[j·n+i] = c[j]·t[j·n+i] + 0
//
// The +0 turns −0 into +0, which makes it bitwise equal to ScaleAddBlocks
// with d = 0 into a zeroed z.
func ScaleBlocks(z, c, t []float64) {
	n := checkBlocks("ScaleBlocks", z, c, t)
	if useLanes {
		scaleBlocksLanes(z, c, t, n)
		clearUpper()
		return
	}
	for j, cj := range c {
		zj, tj := z[j*n:(j+1)*n], t[j*n:(j+1)*n]
		for i, ti := range tj {
			zj[i] = cj*ti + 0
		}
	}
}

// checkBlocks returns the block length of z and t, len(z)/len(c).
func checkBlocks(name string, z, c, t []float64) int {
	if len(c) == 0 {
		if len(z) != 0 {
			panic(fmt.Sprintf("lanes: %s of %d entries in no blocks", name, len(z)))
		}
		return 0
	}
	n := len(z) / len(c)
	if n*len(c) != len(z) || len(t) != len(z) {
		panic(fmt.Sprintf("lanes: %s of %d and %d entries in %d blocks", name, len(z), len(t), len(c)))
	}
	return n
}
