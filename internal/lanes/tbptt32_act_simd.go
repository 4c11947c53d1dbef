//go:build goexperiment.simd && amd64

package lanes

import "simd/archsimd"

// The gate nonlinearities of T-BPTT's float32 engine in float32, eight
// lanes per instruction (LSTMGates32 and LSTMTanh32's lane paths for
// whole quads): σ and tanh as in gates4, from one exponential per lane,
// with float32 formulas (Cephes's expf and tanhf).

func splat32(x float32) [8]float32 { return [8]float32{x, x, x, x, x, x, x, x} }

func ld32c(c *[8]float32) tb8 { return archsimd.LoadFloat32x8(c) }

var (
	k32ExpLo     = splat32(-87)
	k32ExpHi     = splat32(88)
	k32Log2e     = splat32(1.44269504088896341)
	k32NegLn2Hi  = splat32(-0.693359375)
	k32NegLn2Lo  = splat32(2.12194440e-4)
	k32E0        = splat32(1.9875691500e-4) // Cephes expf's P, highest degree first
	k32E1        = splat32(1.3981999507e-3)
	k32E2        = splat32(8.3334519073e-3)
	k32E3        = splat32(4.1665795894e-2)
	k32E4        = splat32(1.6666665459e-1)
	k32E5        = splat32(5.0000001201e-1)
	k32T0        = splat32(-5.70498872745e-3) // Cephes tanhf's P, highest degree first
	k32T1        = splat32(2.06390887954e-2)
	k32T2        = splat32(-5.37397155531e-2)
	k32T3        = splat32(1.33314422036e-1)
	k32T4        = splat32(-3.33332819422e-1)
	k32One       = splat32(1)
	k32NegTwo    = splat32(-2)
	k32Zero      = splat32(0)
	k32TanhSmall = splat32(0.625)
	// The tanh lanes of an octet of gates whose halves are each wholly σ
	// or wholly tanh (index: 1 if the low half is tanh, 2 if the high).
	k32TanhLanes = [4][8]float32{
		{0, 0, 0, 0, 0, 0, 0, 0},
		{1, 1, 1, 1, 0, 0, 0, 0},
		{0, 0, 0, 0, 1, 1, 1, 1},
		{1, 1, 1, 1, 1, 1, 1, 1},
	}
)

// exp32x8 is e^x in eight float32 lanes for x in [−87, 88] (clamped there,
// so that the result stays normal):
//
//	n = round(x·log₂e)     r = x − n·ln2_hi − n·ln2_lo     (|r| ≤ ln2/2)
//	e^r = 1 + r + r²·P(r)  (Cephes expf's P of degree 5, Horner's scheme)
//	e^x = e^r · 2^n        (2^n built in the exponent bits)
func exp32x8(x tb8) tb8 {
	x = x.Max(ld32c(&k32ExpLo)).Min(ld32c(&k32ExpHi))
	n := x.Mul(ld32c(&k32Log2e)).RoundToEven()
	r := n.MulAdd(ld32c(&k32NegLn2Hi), x)
	r = n.MulAdd(ld32c(&k32NegLn2Lo), r)
	p := ld32c(&k32E0).MulAdd(r, ld32c(&k32E1))
	p = p.MulAdd(r, ld32c(&k32E2))
	p = p.MulAdd(r, ld32c(&k32E3))
	p = p.MulAdd(r, ld32c(&k32E4))
	p = p.MulAdd(r, ld32c(&k32E5))
	e := p.MulAdd(r.Mul(r), r).Add(ld32c(&k32One))
	s := n.ConvertToInt32().Add(archsimd.BroadcastInt32x8(127)).ShiftAllLeft(23).AsFloat32x8()
	return e.Mul(s)
}

// act32x8 is σ in the lanes where isT is clear and tanh where it is set,
// from one exponential per lane as gates4: σ(a) = 1/(1+e^(−a)); tanh(a) =
// a + a·s·P(s) with s = a² below |a| = 0.625 (Cephes tanhf), else
// sign(a)·(1 − 2/(1+e^(2|a|))). NaN lanes return NaN.
func act32x8(a tb8, isT archsimd.Mask32x8) tb8 {
	signBit := archsimd.BroadcastInt32x8(-1 << 31)
	ai := a.AsInt32x8()
	sign := ai.And(signBit)
	z := ai.AndNot(signBit).AsFloat32x8() // |a|
	one := ld32c(&k32One)
	w := z.Add(z).Merge(ld32c(&k32Zero).Sub(a), isT)
	r := one.Div(one.Add(exp32x8(w)))
	t := tanhFromParts32(a, z, sign, r)
	return a.Merge(t.Merge(r, isT), a.IsNaN())
}

// lstmGates32Lanes is LSTMGates32's lane path for H a multiple of 4: the
// 4H pre-activations by octets, each half wholly in one gate block.
func lstmGates32Lanes(g []float32) {
	H := len(g) / 4
	p := tbBase(g)
	zero := ld32c(&k32Zero)
	for k := 0; k < 4*H; k += 8 {
		lanes := 0
		if k >= 2*H && k < 3*H {
			lanes |= 1
		}
		if k+4 >= 2*H && k+4 < 3*H {
			lanes |= 2
		}
		tbSt(act32x8(tbLd(p, k), ld32c(&k32TanhLanes[lanes]).Greater(zero)), p, k)
	}
}

// lstmTanh32Lanes is LSTMTanh32's lane path for a length n multiple of 4:
// octets, then a last quad twice in an octet.
func lstmTanh32Lanes(dst, src []float32) {
	n := len(src)
	pd, ps := tbBase(dst), tbBase(src)
	isT := ld32c(&k32TanhLanes[3]).Greater(ld32c(&k32Zero))
	k := 0
	for ; k+8 <= n; k += 8 {
		tbSt(act32x8(tbLd(ps, k), isT), pd, k)
	}
	if k < n {
		q := tbLd4(ps, k)
		tbSt4(act32x8(tbPair(q, q), isT).GetLo(), pd, k)
	}
}
