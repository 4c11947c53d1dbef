package lanes

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
	w0, w1, w2, w3 := w[:m], w[m:2*m], w[2*m:3*m], w[3*m:4*m]
	a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
	for k, xk := range x {
		a0 += w0[k] * xk
		a1 += w1[k] * xk
		a2 += w2[k] * xk
		a3 += w3[k] * xk
	}
	a[0], a[1], a[2], a[3] = a0, a1, a2, a3
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
