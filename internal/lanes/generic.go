package lanes

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// The scalar paths that the float64 kernels and their float32 counterparts
// (the float32 engine's) share: the same operations in the same order in
// either element type.

// dot4Scalar is Dot4's and Dot4x32's scalar path: the products added in
// order k = 0, 1, ... (len(w) ≥ 4·len(x)).
func dot4Scalar[T arch.Float](a *[4]T, w, x []T) {
	m := len(x)
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

// outerShape returns the rows R and columns m of OuterSum's (name's)
// matrix g for the window x and coefficients d (len(x) ≥ 1), and panics if
// the lengths do not fit.
func outerShape[T arch.Float](name string, g, d []T, x [][]T) (R, m int) {
	w := len(x)
	R = len(d) / w
	m = len(g) / max(R, 1)
	if R*w != len(d) || R*m != len(g) {
		panic(fmt.Sprintf("lanes: %s of %d vectors with %d coefficients into %d entries", name, w, len(d), len(g)))
	}
	for _, xn := range x {
		if len(xn) != m {
			panic(fmt.Sprintf("lanes: %s vector of length %d, want %d", name, len(xn), m))
		}
	}
	return R, m
}

// outerScalar is OuterSum's and OuterSum32's scalar path: each entry's
// products added one at a time in the order of n, the sums of four rows
// at a time in registers (four independent chains of additions, each x
// entry loaded once for the four, no store and reload of an entry between
// two of its additions).
func outerScalar[T arch.Float](g, d []T, x [][]T, R, m int) {
	r := 0
	for ; r+4 <= R; r += 4 {
		g0, g1, g2, g3 := g[r*m:(r+1)*m], g[(r+1)*m:(r+2)*m], g[(r+2)*m:(r+3)*m], g[(r+3)*m:(r+4)*m]
		for j := range m {
			s0, s1, s2, s3 := g0[j], g1[j], g2[j], g3[j]
			for n, xn := range x {
				xj, dn := xn[j], d[n*R+r:n*R+r+4]
				s0 += dn[0] * xj
				s1 += dn[1] * xj
				s2 += dn[2] * xj
				s3 += dn[3] * xj
			}
			g0[j], g1[j], g2[j], g3[j] = s0, s1, s2, s3
		}
	}
	for ; r < R; r++ {
		row := g[r*m : (r+1)*m]
		for j := range row {
			s := row[j]
			for n, xn := range x {
				s += d[n*R+r] * xn[j]
			}
			row[j] = s
		}
	}
}
