//go:build goexperiment.simd && amd64

package lanes

import (
	"math"
	"simd/archsimd"
)

type f64x4 = archsimd.Float64x4

func bc(x float64) f64x4 { return archsimd.BroadcastFloat64x4(x) }

// x.Merge(y, mask) is x in the lanes where mask is set and y elsewhere.

// Constants of the lane functions, four copies each: a vector load from
// memory is cheaper than broadcasting a scalar at every call.
const (
	log2e      = 1.44269504088896338700e+00
	ln2Hi      = 6.93147180369123816490e-01
	ln2Lo      = 1.90821492927058770002e-10
	magic      = 0x1.8p52 + 1023
	p0, p1, p2 = -9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3 // math.Tanh's
	q0, q1, q2 = 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3
)

func splat(x float64) [4]float64 { return [4]float64{x, x, x, x} }

func ld(c *[4]float64) f64x4 { return archsimd.LoadFloat64x4(c) }

var (
	kLo        = splat(-746)
	kHi        = splat(710)
	kLog2e     = splat(log2e)
	kLn2Hi     = splat(ln2Hi)
	kLn2Lo     = splat(ln2Lo)
	kFact13    = splat(1.0 / 6227020800) // 1/13!, and so on
	kFact12    = splat(1.0 / 479001600)
	kFact11    = splat(1.0 / 39916800)
	kFact10    = splat(1.0 / 3628800)
	kFact9     = splat(1.0 / 362880)
	kFact8     = splat(1.0 / 40320)
	kFact7     = splat(1.0 / 5040)
	kFact6     = splat(1.0 / 720)
	kFact5     = splat(1.0 / 120)
	kFact4     = splat(1.0 / 24)
	kFact3     = splat(1.0 / 6)
	kHalf      = splat(0.5)
	kOne       = splat(1)
	kMagic     = splat(magic)
	kInf       = splat(math.Inf(1))
	kN1024     = splat(1024)
	kZero      = splat(0)
	kNm1075    = splat(-1075)
	kP0        = splat(p0)
	kP1        = splat(p1)
	kP2        = splat(p2)
	kQ0        = splat(q0)
	kQ1        = splat(q1)
	kQ2        = splat(q2)
	kTanhMax   = splat(44)
	kTwo       = splat(2)
	kTanhSmall = splat(0.625)
)

// exp4 is e^x in four lanes:
//
//	n = round(x·log₂e)     r = x − n·ln2_hi − n·ln2_lo     (|r| ≤ ln2/2, Cody-Waite)
//	e^r = Σ_{k≤13} r^k/k!  (Estrin's scheme with fused multiply-adds; the
//	                        truncation is below 1e-17 relative on |r| ≤ ln2/2)
//	e^x = e^r · 2^⌊n/2⌋ · 2^(n−⌊n/2⌋)
//
// Splitting 2^n in two factors keeps both normal over the whole range, so
// results in the subnormal range are rounded once. Like math.Exp on amd64
// (whose result is the reference), lanes with n ≥ 1024 (x > 709.436) return
// +Inf and lanes with n < −1075 return 0; x is clamped to [−746, 710] before
// the reduction and NaN lanes return NaN. The powers of two are built in the exponent bits:
// adding 1.5·2^52 + 1023 to an integer-valued n leaves n+1023 in the low
// mantissa bits, which a 52-bit left shift moves into the exponent field.
func exp4(x f64x4) f64x4 {
	nan := x.IsNaN()
	xc := x.Max(ld(&kLo)).Min(ld(&kHi))
	n := xc.Mul(ld(&kLog2e)).RoundToEven()
	r := xc.Sub(n.Mul(ld(&kLn2Hi))).Sub(n.Mul(ld(&kLn2Lo)))
	// e^r = 1 + (r + r²·Q(r)), Q = Σ_{k≤11} r^k/(k+2)! by Estrin's scheme
	// (pairs, then pairs of pairs with r², r⁴, r⁸): six multiply-adds
	// deep instead of Horner's thirteen (the exponential sits on the
	// critical path of every stage), and the two largest terms added last,
	// each with one rounding, as in Horner's scheme.
	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	r8 := r4.Mul(r4)
	a0 := ld(&kFact3).MulAdd(r, ld(&kHalf))
	a1 := ld(&kFact5).MulAdd(r, ld(&kFact4))
	a2 := ld(&kFact7).MulAdd(r, ld(&kFact6))
	a3 := ld(&kFact9).MulAdd(r, ld(&kFact8))
	a4 := ld(&kFact11).MulAdd(r, ld(&kFact10))
	a5 := ld(&kFact13).MulAdd(r, ld(&kFact12))
	b0 := a1.MulAdd(r2, a0)
	b1 := a3.MulAdd(r2, a2)
	b2 := a5.MulAdd(r2, a4)
	q := b2.MulAdd(r8, b1.MulAdd(r4, b0))
	p := r2.MulAdd(q, r).Add(ld(&kOne))
	n1 := n.Mul(ld(&kHalf)).Floor()
	n2 := n.Sub(n1)
	s1 := n1.Add(ld(&kMagic)).AsInt64x4().ShiftAllLeft(52).AsFloat64x4()
	s2 := n2.Add(ld(&kMagic)).AsInt64x4().ShiftAllLeft(52).AsFloat64x4()
	y := p.Mul(s1).Mul(s2)
	y = ld(&kInf).Merge(y, n.GreaterEqual(ld(&kN1024)))
	y = ld(&kZero).Merge(y, n.Less(ld(&kNm1075)))
	return x.Merge(y, nan)
}

// sigmoid4 is 1/(1+e^(−a)) in four lanes.
func sigmoid4(a f64x4) f64x4 {
	one := ld(&kOne)
	return one.Div(one.Add(exp4(ld(&kZero).Sub(a))))
}

// tanh4 is tanh in four lanes with math.Tanh's formulas: for |x| < 0.625
// x + x·s·P(s)/Q(s) with s = x² (the Cephes coefficients math.Tanh uses),
// else sign(x)·(1 − 2/(e^(2|x|)+1)) with |x| clamped at 44 (tanh is ±1 in
// float64 well before). NaN lanes return NaN, ±0 returns ±0.
func tanh4(x f64x4) f64x4 {
	signBit := archsimd.BroadcastInt64x4(-1 << 63)
	xi := x.AsInt64x4()
	sign := xi.And(signBit)
	z := xi.AndNot(signBit).AsFloat64x4() // |x|
	s := x.Mul(x)
	num := ld(&kP0).Mul(s).Add(ld(&kP1)).Mul(s).Add(ld(&kP2))
	den := s.Add(ld(&kQ0)).Mul(s).Add(ld(&kQ1)).Mul(s).Add(ld(&kQ2))
	small := x.Add(x.Mul(s).Mul(num).Div(den))
	e := exp4(z.Min(ld(&kTanhMax)).Mul(ld(&kTwo)))
	large := ld(&kOne).Sub(ld(&kTwo).Div(e.Add(ld(&kOne))))
	// Both branches give |tanh| for x ≥ 0 and tanh for x < 0; the sign bit
	// ORed in makes the large branch odd and keeps −0 (the rational branch
	// returns +0 for it).
	y := small.Merge(large, z.Less(ld(&kTanhSmall)))
	y = y.AsInt64x4().Or(sign).AsFloat64x4()
	return x.Merge(y, x.IsNaN())
}

// kGateG marks lane 2, the g gate of gates4.
var kGateG = [4]float64{0, 0, 1, 0}

// gates4 is the activations of one column's gates a = (a_i, a_f, a_g, a_o):
// σ in lanes 0, 1, 3 and tanh in lane 2, bitwise equal to sigmoid4 and tanh4
// in those lanes, with one exponential for all four. Both functions are
// 1/(1+e) of an exponential e: σ(a) with e = e^(−a), and tanh's large branch
// 1 − 2/(e+1) = 1 − 2·(1/(1+e)) with e = e^(2|a|) (doubling is exact).
func gates4(a f64x4) f64x4 {
	isG := ld(&kGateG).Greater(ld(&kZero))
	signBit := archsimd.BroadcastInt64x4(-1 << 63)
	ai := a.AsInt64x4()
	sign := ai.And(signBit)
	z := ai.AndNot(signBit).AsFloat64x4() // |a|
	w := z.Min(ld(&kTanhMax)).Mul(ld(&kTwo)).Merge(ld(&kZero).Sub(a), isG)
	one := ld(&kOne)
	r := one.Div(one.Add(exp4(w)))
	// The g lane as in tanh4.
	s := a.Mul(a)
	num := ld(&kP0).Mul(s).Add(ld(&kP1)).Mul(s).Add(ld(&kP2))
	den := s.Add(ld(&kQ0)).Mul(s).Add(ld(&kQ1)).Mul(s).Add(ld(&kQ2))
	small := a.Add(a.Mul(s).Mul(num).Div(den))
	large := one.Sub(ld(&kTwo).Mul(r))
	t := small.Merge(large, z.Less(ld(&kTanhSmall)))
	t = t.AsInt64x4().Or(sign).AsFloat64x4()
	return a.Merge(t.Merge(r, isG), a.IsNaN())
}

func sigmoidLanes(dst, src []float64) {
	sq := quads(src)
	dq := quads(dst)[:len(sq)]
	for k := range sq {
		sigmoid4(load(&sq[k])).Store(&dq[k])
	}
	n := 4 * len(sq)
	if n < len(src) {
		sigmoid4(archsimd.LoadFloat64x4SlicePart(src[n:])).StoreSlicePart(dst[n:])
	}
}

func tanhLanes(dst, src []float64) {
	sq := quads(src)
	dq := quads(dst)[:len(sq)]
	for k := range sq {
		tanh4(load(&sq[k])).Store(&dq[k])
	}
	n := 4 * len(sq)
	if n < len(src) {
		tanh4(archsimd.LoadFloat64x4SlicePart(src[n:])).StoreSlicePart(dst[n:])
	}
}

func expLanes(dst, src []float64) {
	sq := quads(src)
	dq := quads(dst)[:len(sq)]
	for k := range sq {
		exp4(load(&sq[k])).Store(&dq[k])
	}
	n := 4 * len(sq)
	if n < len(src) {
		exp4(archsimd.LoadFloat64x4SlicePart(src[n:])).StoreSlicePart(dst[n:])
	}
}
