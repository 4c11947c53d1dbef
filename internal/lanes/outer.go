package lanes

// Outer adds the outer product d ⊗ x to the row-major matrix g
// (len(d) rows of len(x)):
//
//	g[r·m+j] += d[r]·x[j]      m = len(x)
//
// Both paths agree bitwise.
func Outer(g, d, x []float64) {
	m := len(x)
	g = g[:len(d)*m]
	if useLanes && m >= 4 {
		outerLanes(g, d, x)
		clearUpper()
		return
	}
	for r, dr := range d {
		row := g[r*m : (r+1)*m]
		for j, xj := range x {
			row[j] += dr * xj
		}
	}
}

// AddMulT adds Wᵀ·d to z, W being row-major with len(d) rows of len(z):
//
//	z[j] += Σ_r d[r]·W[r·n+j]      n = len(z), rows r in order
//
// Both paths agree bitwise.
func AddMulT(z, w, d []float64) {
	n := len(z)
	w = w[:len(d)*n]
	if useLanes && n >= 4 {
		addMulTLanes(z, w, d)
		clearUpper()
		return
	}
	for r, dr := range d {
		for j, wj := range w[r*n : (r+1)*n] {
			z[j] += dr * wj
		}
	}
}
