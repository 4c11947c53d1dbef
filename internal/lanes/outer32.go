package lanes

// OuterSum32 is OuterSum in float32, for T-BPTT's float32 engine: it adds
// the window's outer products d_n ⊗ x_n to the row-major matrix g (R rows
// of m = len(g)/R, R = len(d)/len(x), every x[n] of length m):
//
//	g[r·m+j] += Σ_n d[n·R+r]·x[n][j]
//
// each entry's products added one at a time in the order of n. The lane
// path (m ≥ 1) rounds each multiply-add once (fused, eight entries per
// instruction, the sums in registers across the window; OuterSet32 at
// R = 16 rows of whole quads by transposed blocks, outer32Set16, with the
// same sums); the scalar path rounds the product and the sum, so the two
// differ in the last bits.
func OuterSum32(g, d []float32, x [][]float32) { outerSum32(g, d, x, false) }

// OuterSet32 is OuterSum32 into zeros: it sets
//
//	g[r·m+j] = Σ_n d[n·R+r]·x[n][j]
//
// with the bits OuterSum32 gives on a cleared g, without reading g.
func OuterSet32(g, d []float32, x [][]float32) { outerSum32(g, d, x, true) }

func outerSum32(g, d []float32, x [][]float32, set bool) {
	if len(x) == 0 {
		if set {
			clear(g)
		}
		return
	}
	R, m := outerShape("OuterSum32", g, d, x)
	if useLanes && set && R == 16 && m%4 == 0 && m <= 16 {
		outer32Set16(g, d, x, m)
		clearUpper()
		return
	}
	if useLanes && m >= 1 {
		outerSum32Lanes(g, d, x, R, m, set)
		clearUpper()
		return
	}
	if set {
		clear(g)
	}
	outerScalar(g, d, x, R, m)
}
