package lanes

import (
	"math"

	"github.com/ccn-go/ccn/arch"
)

// RMSProp applies the RMSProp step (package experiments documents the
// optimizer) to one block of parameters, in place:
//
//	g   = s·u_i
//	v_i ← b·v_i + (1−b)·g²     stored as 0 below τ (AccumulatorFloor)
//	θ_i ← θ_i + α·g / (√v_i + ε)
//
// theta and v must be at least as long as u.
func RMSProp(theta, u, v []float64, s, alpha, b, eps float64) {
	rmsprop(theta, u, v, s, alpha, b, eps, AccumulatorFloor(eps))
}

// rmsprop is RMSProp with the floor tau (0: none).
func rmsprop(theta, u, v []float64, s, alpha, b, eps, tau float64) {
	v, theta = v[:len(u)], theta[:len(u)]
	if useLanes {
		rmspropLanes(theta, u, v, s, alpha, b, eps, tau)
		clearUpper()
		return
	}
	rmspropScalar(theta, u, v, s, alpha, b, eps, tau)
}

// AccumulatorFloor returns τ, below which RMSProp stores an accumulator
// entry as 0 (the step itself reads the value before the floor):
//
//	τ = min(2⁻¹⁰⁰⁰, (ε·2⁻⁶⁰)²),   0 where that is below 2⁻¹⁰²⁰
//
// An entry whose gradient stays 0 (the weight of a pixel that is never on)
// decays as bᵗ: with b = 0.9999 it leaves the normal range after 7.1M
// steps and, rounded on the subnormal grid, stays there for good; each
// subnormal operand then costs the CPU a microcode assist, and an Atari
// T-BPTT step took 7 to 8 times as long from there on. Stored as 0
// instead, it costs nothing, and θ keeps its bits: √v < ε·2⁻⁶⁰ is below
// half an ulp of ε for every v < τ, so √v + ε = ε with or without the
// floor, and a floored entry differs from the unfloored one by less than
// τ, which b·v + (1−b)·g² absorbs (rounds to the same double) as soon as
// the new term is above 2⁵⁴·τ, far below where √v + ε would notice; only
// entries of v under about 2⁻⁹⁰⁰ differ (TestRMSPropFloorKeepsTheta).
// Where ε is too small for that (below about 2⁻⁴⁵⁰) τ is 0: no floor.
func AccumulatorFloor(eps float64) float64 {
	t := eps * 0x1p-60
	t *= t
	if t > 0x1p-1000 {
		t = 0x1p-1000
	}
	if t < 0x1p-1020 {
		return 0
	}
	return t
}

// floorAccumulator is v, or 0 where v < tau (AccumulatorFloor,
// AccumulatorFloor32).
func floorAccumulator[T arch.Float](v, tau T) T {
	if v < tau {
		return 0
	}
	return v
}

// RMSPropFold is RMSProp(theta, u, v, s, alpha, b, eps) followed by
// ScaleAdd(u, d, c, t), u ← d·u + c·t, with the same bits: the RMSProp step
// reads u before the fold. The lane path does both in one pass over the
// entries (one load and store of u instead of two); the scalar path makes
// the two calls.
func RMSPropFold(theta, u, v, t []float64, s, alpha, b, eps, d, c float64) {
	rmspropFold(theta, u, v, t, s, alpha, b, eps, d, c, AccumulatorFloor(eps))
}

// rmspropFold is RMSPropFold with the floor tau (0: none).
func rmspropFold(theta, u, v, t []float64, s, alpha, b, eps, d, c, tau float64) {
	v, theta, t = v[:len(u)], theta[:len(u)], t[:len(u)]
	if useLanes {
		rmspropFoldLanes(theta, u, v, t, s, alpha, b, eps, d, c, tau)
		clearUpper()
		return
	}
	rmsprop(theta, u, v, s, alpha, b, eps, tau)
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
//
// A group whose four scaled gradients g are ±0 (their trace entries are 0,
// as a pixel's weights' are once it has been off for some thousand steps)
// and whose new accumulator entries are finite is idle: its step
//
//	θ + g·a₁·(α·a₂·a₃/(a₀·a₁·a₂·a₃)),   a = √v + ε ≥ ε, all finite
//
// adds g times a positive finite number or 0 (for α ≥ 0), a zero of g's
// sign, which is what adding g itself does, to the bit (θ = −0 included).
// Idle groups add g and skip the square roots and the division that bound
// the loop; the lane loops do the same with their pairs of quads. A NaN or
// infinite step s makes g NaN, not 0, and an infinite or NaN entry of v
// would make θ NaN: neither is idle; nor is any group when α < 0 (the zero
// added would take the other sign) or NaN (idleBound).
func rmspropScalar(theta, u, v []float64, s, alpha, b, eps, tau float64) {
	c, inf := 1-b, idleBound(alpha)
	n := len(u) &^ 3
	for i := 0; i < n; i += 4 {
		g0, g1, g2, g3 := s*u[i], s*u[i+1], s*u[i+2], s*u[i+3]
		v0 := b*v[i] + c*g0*g0
		v1 := b*v[i+1] + c*g1*g1
		v2 := b*v[i+2] + c*g2*g2
		v3 := b*v[i+3] + c*g3*g3
		v[i], v[i+1] = floorAccumulator(v0, tau), floorAccumulator(v1, tau)
		v[i+2], v[i+3] = floorAccumulator(v2, tau), floorAccumulator(v3, tau)
		if g0 == 0 && g1 == 0 && g2 == 0 && g3 == 0 && v0 < inf && v1 < inf && v2 < inf && v3 < inf {
			theta[i] += g0 // the zero of g0's sign that the step below would add
			theta[i+1] += g1
			theta[i+2] += g2
			theta[i+3] += g3
			continue
		}
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
	rmspropTail(theta[n:], u[n:], v[n:], s, alpha, b, eps, tau)
}

// idleBound is the bound below which every new accumulator entry of an idle
// group must lie: +∞ (v finite) for α ≥ 0, else −∞, which no entry is below.
func idleBound(alpha float64) float64 {
	if alpha >= 0 {
		return math.Inf(1)
	}
	return math.Inf(-1)
}

// rmspropTail is the plain one-entry-at-a-time loop, with one division each.
func rmspropTail(theta, u, v []float64, s, alpha, b, eps, tau float64) {
	c := 1 - b
	for i := range u {
		g := s * u[i]
		vi := b*v[i] + c*g*g
		v[i] = floorAccumulator(vi, tau)
		theta[i] += alpha * g / (math.Sqrt(vi) + eps)
	}
}
