package forward

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// denseStep is the forward pass of a fully connected LSTM shared by the
// dense engines (DenseRTRL, SnAp1, UORO): the state before and after one step
// and the per-unit coefficients of the step's Jacobian that every one of
// them propagates its traces or estimates with. For unit j,
//
//	a_{q,j} = b[q·H+j] + Σ_k W_ih[q·H+j][k]·x_k + Σ_k W_hh[q·H+j][k]·h_k(t-1)
//	i, f, o = σ(a_i), σ(a_f), σ(a_o)     g = tanh(a_g)
//	c_j = f·c_j(t-1) + i·g               h_j = o·tanh(c_j)
//	y = w_out·h + b_out
//
// and the coefficients of ∂c_j and ∂h_j in the pre-activations and c_j(t-1):
//
//	∂c_j = f_j·∂c_j(t-1) + kF_j·∂a_{f,j} + kG_j·∂a_{g,j} + kI_j·∂a_{i,j}
//	∂h_j = B_j·∂c_j + D_j·∂a_{o,j}
//	kI = g·i(1-i)   kF = c_j(t-1)·f(1-f)   kG = i·(1-g²)
//	B = o·(1-tanh²(c_j))   D = tanh(c_j)·o(1-o)
type denseStep struct {
	h, c, hPrev, cPrev  []float64 // H each
	f, kI, kF, kG, B, D []float64 // H each: the last step's coefficients
}

// newDenseStep returns the zero state of H units.
func newDenseStep(H int) denseStep {
	vec := func() []float64 { return make([]float64, H) }
	return denseStep{h: vec(), c: vec(), hPrev: vec(), cPrev: vec(),
		f: vec(), kI: vec(), kF: vec(), kG: vec(), B: vec(), D: vec()}
}

// reset zeroes the state h, c.
func (s *denseStep) reset() {
	clear(s.h)
	clear(s.c)
}

// step moves h, c to hPrev, cPrev, advances them by one step of shape with
// params on input x, fills the coefficients and returns the prediction y. It
// costs 8H(m+H) + 10H operations for the forward pass, 2H (+1 with the output
// bias) for the prediction and 15H for the coefficients (exponentials, tanh
// and negations not counted). It panics if x does not have length m.
func (s *denseStep) step(shape arch.Dense, params, x []float64) float64 {
	m, H := shape.Inputs, shape.Hidden
	if len(x) != m {
		panic(fmt.Sprintf("forward: dense input has length %d, want %d", len(x), m))
	}
	wih, whh, b, wout := shape.Split(params)
	copy(s.hPrev, s.h)
	copy(s.cPrev, s.c)
	hp, cp := s.hPrev, s.cPrev
	for j := 0; j < H; j++ {
		var a [arch.NumGates]float64
		for q := range a {
			r := q*H + j
			v := b[r]
			for k, wk := range wih[r*m : (r+1)*m] {
				v += wk * x[k]
			}
			for k, wk := range whh[r*H : (r+1)*H] {
				v += wk * hp[k]
			}
			a[q] = v
		}
		i, f, g, o := sigmoid(a[arch.GateI]), sigmoid(a[arch.GateF]), math.Tanh(a[arch.GateG]), sigmoid(a[arch.GateO])
		cn := f*cp[j] + i*g
		tc := math.Tanh(cn)
		s.c[j] = cn
		s.h[j] = o * tc
		s.f[j] = f
		s.kI[j] = g * (i * (1 - i))
		s.kF[j] = cp[j] * (f * (1 - f))
		s.kG[j] = i * (1 - g*g)
		s.B[j] = o * (1 - tc*tc)
		s.D[j] = tc * (o * (1 - o))
	}
	y := shape.OutBiasOf(params)
	for j, w := range wout {
		y += w * s.h[j]
	}
	return y
}

// stepOps is the operation count of step: 8H(m+H) + 10H for the forward
// pass, 15H for the coefficients, 2H for the prediction and 1 more with the
// output bias.
func stepOps(shape arch.Dense) int {
	m, H := shape.Inputs, shape.Hidden
	ops := 8*H*(m+H) + 10*H + 15*H + 2*H
	if shape.OutBias {
		ops++
	}
	return ops
}

// headGrad writes the head's part of ∂y/∂θ into dst (length
// shape.NumParams()): ∂y/∂w_out[j] = h_j of the last step and ∂y/∂b_out = 1.
func (s *denseStep) headGrad(shape arch.Dense, dst []float64) {
	off := shape.OffOut()
	copy(dst[off:off+shape.Hidden], s.h)
	if shape.OutBias {
		dst[shape.IdxOutBias()] = 1
	}
}

// sigmoid costs 2 counted operations (one add, one division); the negation and
// the exponential are not counted.
func sigmoid(a float64) float64 { return 1 / (1 + math.Exp(-a)) }
