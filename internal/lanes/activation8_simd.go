//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// exp8, sigmoid8 and tanh8 are exp4, sigmoid4 and tanh4 eight lanes per
// instruction, for CPUs with AVX-512 (eightLanes): the same operations in the
// same order (AVX-512's rounding to an integer with scale 2⁰ for RoundToEven
// and Floor), so that every lane gives bitwise the four-lane function's
// result (TestActivationsEightLanesMatchFour). exp4 documents the method.

func ld8(c *[8]float64) f64x8 { return archsimd.LoadFloat64x8(c) }

func splat8(x float64) [8]float64 { return [8]float64{x, x, x, x, x, x, x, x} }

var (
	k8Lo        = splat8(-746)
	k8Hi        = splat8(710)
	k8Log2e     = splat8(log2e)
	k8Ln2Hi     = splat8(ln2Hi)
	k8Ln2Lo     = splat8(ln2Lo)
	k8Fact13    = splat8(1.0 / 6227020800)
	k8Fact12    = splat8(1.0 / 479001600)
	k8Fact11    = splat8(1.0 / 39916800)
	k8Fact10    = splat8(1.0 / 3628800)
	k8Fact9     = splat8(1.0 / 362880)
	k8Fact8     = splat8(1.0 / 40320)
	k8Fact7     = splat8(1.0 / 5040)
	k8Fact6     = splat8(1.0 / 720)
	k8Fact5     = splat8(1.0 / 120)
	k8Fact4     = splat8(1.0 / 24)
	k8Fact3     = splat8(1.0 / 6)
	k8Half      = splat8(0.5)
	k8One       = splat8(1)
	k8Magic     = splat8(magic)
	k8Inf       = splat8(kInf[0])
	k8N1024     = splat8(1024)
	k8Zero      = splat8(0)
	k8Nm1075    = splat8(-1075)
	k8P0        = splat8(p0)
	k8P1        = splat8(p1)
	k8P2        = splat8(p2)
	k8Q0        = splat8(q0)
	k8Q1        = splat8(q1)
	k8Q2        = splat8(q2)
	k8TanhMax   = splat8(44)
	k8Two       = splat8(2)
	k8TanhSmall = splat8(0.625)
)

func exp8(x f64x8) f64x8 {
	nan := x.IsNaN()
	xc := x.Max(ld8(&k8Lo)).Min(ld8(&k8Hi))
	n := xc.Mul(ld8(&k8Log2e)).RoundToEvenScaled(0)
	r := xc.Sub(n.Mul(ld8(&k8Ln2Hi))).Sub(n.Mul(ld8(&k8Ln2Lo)))
	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	r8 := r4.Mul(r4)
	a0 := ld8(&k8Fact3).MulAdd(r, ld8(&k8Half))
	a1 := ld8(&k8Fact5).MulAdd(r, ld8(&k8Fact4))
	a2 := ld8(&k8Fact7).MulAdd(r, ld8(&k8Fact6))
	a3 := ld8(&k8Fact9).MulAdd(r, ld8(&k8Fact8))
	a4 := ld8(&k8Fact11).MulAdd(r, ld8(&k8Fact10))
	a5 := ld8(&k8Fact13).MulAdd(r, ld8(&k8Fact12))
	b0 := a1.MulAdd(r2, a0)
	b1 := a3.MulAdd(r2, a2)
	b2 := a5.MulAdd(r2, a4)
	q := b2.MulAdd(r8, b1.MulAdd(r4, b0))
	p := r2.MulAdd(q, r).Add(ld8(&k8One))
	n1 := n.Mul(ld8(&k8Half)).FloorScaled(0)
	n2 := n.Sub(n1)
	s1 := n1.Add(ld8(&k8Magic)).AsInt64x8().ShiftAllLeft(52).AsFloat64x8()
	s2 := n2.Add(ld8(&k8Magic)).AsInt64x8().ShiftAllLeft(52).AsFloat64x8()
	y := p.Mul(s1).Mul(s2)
	y = ld8(&k8Inf).Merge(y, n.GreaterEqual(ld8(&k8N1024)))
	y = ld8(&k8Zero).Merge(y, n.Less(ld8(&k8Nm1075)))
	return x.Merge(y, nan)
}

func sigmoid8(a f64x8) f64x8 {
	one := ld8(&k8One)
	return one.Div(one.Add(exp8(ld8(&k8Zero).Sub(a))))
}

func tanh8(x f64x8) f64x8 {
	signBit := archsimd.BroadcastInt64x8(-1 << 63)
	xi := x.AsInt64x8()
	sign := xi.And(signBit)
	z := xi.AndNot(signBit).AsFloat64x8()
	s := x.Mul(x)
	num := ld8(&k8P0).Mul(s).Add(ld8(&k8P1)).Mul(s).Add(ld8(&k8P2))
	den := s.Add(ld8(&k8Q0)).Mul(s).Add(ld8(&k8Q1)).Mul(s).Add(ld8(&k8Q2))
	small := x.Add(x.Mul(s).Mul(num).Div(den))
	e := exp8(z.Min(ld8(&k8TanhMax)).Mul(ld8(&k8Two)))
	large := ld8(&k8One).Sub(ld8(&k8Two).Div(e.Add(ld8(&k8One))))
	y := small.Merge(large, z.Less(ld8(&k8TanhSmall)))
	y = y.AsInt64x8().Or(sign).AsFloat64x8()
	return x.Merge(y, x.IsNaN())
}
