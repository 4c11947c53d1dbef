package lanes

import (
	"fmt"
	"math"
)

// RMSProp32 is RMSProp in float32, θ, u and v all float32:
//
//	g = s·u_i      v_i ← b·v_i + (1−b)·g²      θ_i ← θ_i + α·g/(√v_i + ε)
//
// with s, α, b, 1−b and ε rounded to float32, and v_i stored as 0 below
// AccumulatorFloor32(ε). The lane path (n ≥ 8 entries)
// shares one division between two octets, 1/a₀ = a₁·(α/(a₀·a₁)), as
// RMSProp's lane path does between two quads, and takes the last n mod 8
// entries in the octet ending at the end (computed from the old values
// before the loop, stored after it), and fewer than 8 entries (a network's
// head) in one octet of masked loads and stores; the scalar path computes
// each stored value in float64 and rounds it once. The two differ in the
// last bits.
func RMSProp32(theta, u, v []float32, s, alpha, b, eps float64) {
	n := len(u)
	if len(theta) < n || len(v) < n {
		panic(fmt.Sprintf("lanes: RMSProp32 of %d entries with θ %d and v %d", n, len(theta), len(v)))
	}
	rmsprop32(theta, u, v, s, alpha, b, eps, AccumulatorFloor32(eps))
}

// rmsprop32 is RMSProp32 with the floor tau (0: none).
func rmsprop32(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	n := len(u)
	if useLanes && n >= 8 {
		rmsprop32Lanes(theta, u, v, s, alpha, b, eps, tau)
		clearUpper()
		return
	}
	if useLanes && n > 0 {
		rmsprop32PartLanes(theta[:n], u, v[:n], s, alpha, b, eps, tau)
		clearUpper()
		return
	}
	rmsprop32Scalar(theta[:n], u, v[:n], s, alpha, b, eps, tau)
}

// AccumulatorFloor32 is AccumulatorFloor for the float32 engine, whose
// accumulators leave float32's normal range after about 870k steps of a
// gradient of 0 (b = 0.9999):
//
//	τ = min(2⁻¹²⁰, (ε·2⁻³⁰)²) for ε rounded to float32,   0 where that is below 2⁻¹²⁵
//
// √v < 2⁻⁶⁰ for v < τ, 2⁻⁹ of half an ulp of ε = 1e-8, so the floor
// changes no step it floors; unlike float64's, float32's 24-bit significand
// leaves no room to prove that no later step changes, and the floor came
// with the float32 kernels' third numerics (Float32NumericsVersion).
func AccumulatorFloor32(eps float64) float32 {
	t := float64(float32(eps)) * 0x1p-30
	t *= t
	if t > 0x1p-120 {
		t = 0x1p-120
	}
	if t < 0x1p-125 {
		return 0
	}
	return float32(t)
}

// RMSPropHead32 is RMSProp32 on the entries [0, nh) of θ, u and v with
// step size alphaHead, then on [nh, len(u)) with alpha: a network's head
// and bias in one call. The lane path takes up to 8 entries in one masked
// octet with a step size per lane (bitwise the two calls' values); more
// entries take the two calls.
func RMSPropHead32(theta, u, v []float32, nh int, s, alphaHead, alpha, b, eps float64) {
	n := len(u)
	if nh < 0 || nh > n || len(theta) < n || len(v) < n {
		panic(fmt.Sprintf("lanes: RMSPropHead32 of %d entries (head %d) with θ %d and v %d", n, nh, len(theta), len(v)))
	}
	rmspropHead32(theta, u, v, nh, s, alphaHead, alpha, b, eps, AccumulatorFloor32(eps))
}

// rmspropHead32 is RMSPropHead32 with the floor tau (0: none).
func rmspropHead32(theta, u, v []float32, nh int, s, alphaHead, alpha, b, eps float64, tau float32) {
	n := len(u)
	if useLanes && n > 0 && n <= 8 {
		rmsprop32HeadLanes(theta[:n], u, v[:n], nh, s, alphaHead, alpha, b, eps, tau)
		clearUpper()
		return
	}
	rmsprop32(theta[:nh], u[:nh], v[:nh], s, alphaHead, b, eps, tau)
	rmsprop32(theta[nh:n], u[nh:], v[nh:n], s, alpha, b, eps, tau)
}

// RMSPropFold32 is RMSProp32(theta, u, v, s, alpha, b, eps) followed by u ←
// d·u + c·t in float32 (d, c rounded; ScaleAddSame32, entries below
// TinyTrace32 stored as 0): the RMSProp step reads u before the fold. The
// lane path (n ≥ 8) does both in one pass.
func RMSPropFold32(theta, u, v, t []float32, s, alpha, b, eps, d, c float64) {
	n := len(u)
	if len(theta) < n || len(v) < n || len(t) < n {
		panic(fmt.Sprintf("lanes: RMSPropFold32 of %d entries with θ %d, v %d, t %d", n, len(theta), len(v), len(t)))
	}
	rmspropFold32(theta, u, v, t, s, alpha, b, eps, d, c, AccumulatorFloor32(eps))
}

// rmspropFold32 is RMSPropFold32 with the floor tau (0: none).
func rmspropFold32(theta, u, v, t []float32, s, alpha, b, eps, d, c float64, tau float32) {
	n := len(u)
	if useLanes && n >= 8 {
		rmspropFold32Lanes(theta, u, v, t, s, alpha, b, eps, d, c, tau)
		clearUpper()
		return
	}
	rmsprop32Scalar(theta[:n], u, v[:n], s, alpha, b, eps, tau)
	ScaleAddSame32(u, d, c, t)
}

// rmsprop32Scalar is the scalar path of RMSProp32: each stored value
// computed in float64 from the float32 operands (the constants rounded to
// float32) and rounded once; v below tau stored as 0.
func rmsprop32Scalar(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	s32 := float32(s)
	a, bb, c, e := float64(float32(alpha)), float64(float32(b)), float64(float32(1-b)), float64(float32(eps))
	for i, ui := range u {
		g := float64(s32 * ui)
		vi := float32(c*g*g + bb*float64(v[i]))
		v[i] = floorAccumulator(vi, tau)
		theta[i] = float32(float64(theta[i]) + a*g/(math.Sqrt(float64(vi))+e))
	}
}
