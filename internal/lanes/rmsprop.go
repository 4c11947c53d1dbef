package lanes

import "math"

// RMSProp applies the RMSProp step (package experiments documents the
// optimizer) to one block of parameters, in place:
//
//	g   = s·u_i
//	v_i ← b·v_i + (1−b)·g²
//	θ_i ← θ_i + α·g / (√v_i + ε)
//
// theta and v must be at least as long as u.
func RMSProp(theta, u, v []float64, s, alpha, b, eps float64) {
	v, theta = v[:len(u)], theta[:len(u)]
	if useLanes {
		rmspropLanes(theta, u, v, s, alpha, b, eps)
		clearUpper()
		return
	}
	rmspropScalar(theta, u, v, s, alpha, b, eps)
}

// RMSPropFold is RMSProp(theta, u, v, s, alpha, b, eps) followed by
// ScaleAdd(u, d, c, t), u ← d·u + c·t, with the same bits: the RMSProp step
// reads u before the fold. The lane path does both in one pass over the
// entries (one load and store of u instead of two); the scalar path makes
// the two calls.
func RMSPropFold(theta, u, v, t []float64, s, alpha, b, eps, d, c float64) {
	v, theta, t = v[:len(u)], theta[:len(u)], t[:len(u)]
	if useLanes {
		rmspropFoldLanes(theta, u, v, t, s, alpha, b, eps, d, c)
		clearUpper()
		return
	}
	RMSProp(theta, u, v, s, alpha, b, eps)
	ScaleAdd(u, d, c, t)
}

// rmspropScalar is the reference loop. Square roots and divisions bound its
// speed, so it takes four entries at a time and shares one division among
// their four reciprocals,
//
//	1/a_0 = a_1·(a_2·a_3)/(a_0·a_1·a_2·a_3)   and likewise for a_1, a_2, a_3,
//
// which agrees with four divisions to a few units in the last place. The
// product cannot underflow (each a_k ≥ ε); it overflows only for directions
// beyond 1e77, far past divergence.
func rmspropScalar(theta, u, v []float64, s, alpha, b, eps float64) {
	c := 1 - b
	n := len(u) &^ 3
	for i := 0; i < n; i += 4 {
		g0, g1, g2, g3 := s*u[i], s*u[i+1], s*u[i+2], s*u[i+3]
		v0 := b*v[i] + c*g0*g0
		v1 := b*v[i+1] + c*g1*g1
		v2 := b*v[i+2] + c*g2*g2
		v3 := b*v[i+3] + c*g3*g3
		v[i], v[i+1], v[i+2], v[i+3] = v0, v1, v2, v3
		a0 := math.Sqrt(v0) + eps
		a1 := math.Sqrt(v1) + eps
		a2 := math.Sqrt(v2) + eps
		a3 := math.Sqrt(v3) + eps
		p01, p23 := a0*a1, a2*a3
		inv := alpha / (p01 * p23)
		i01, i23 := inv*p23, inv*p01
		theta[i] += g0 * a1 * i01
		theta[i+1] += g1 * a0 * i01
		theta[i+2] += g2 * a3 * i23
		theta[i+3] += g3 * a2 * i23
	}
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps)
}

// rmspropTail is the plain one-entry-at-a-time loop, with one division each.
func rmspropTail(theta, u, v []float64, s, alpha, b, eps float64) {
	c := 1 - b
	for i := range u {
		g := s * u[i]
		vi := b*v[i] + c*g*g
		v[i] = vi
		theta[i] += alpha * g / (math.Sqrt(vi) + eps)
	}
}
