package reference

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// This file is the plain Go forward pass: the second, graph-free statement of
// the equations, used for the T-BPTT entering states, the normalization
// statistics, and by the tests as the function finite differences act on.

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Forward runs the dense LSTM of shape with the flat parameter vector params
// from the state (h0, c0) (nil means zero) over the inputs xs:
//
//	a_t = W_ih·x_t + W_hh·h_{t-1} + b
//	c_t = σ(a_f)⊙c_{t-1} + σ(a_i)⊙tanh(a_g)
//	h_t = σ(a_o)⊙tanh(c_t)
//	y_t = w_out·h_t + b_out      (b_out only with shape.OutBias)
//
// It returns ys[t-1] = y_t and the states hs[t] = h_t, cs[t] = c_t for
// t = 0..len(xs) (hs[0] = h0, cs[0] = c0). Length mismatches panic.
func Forward(shape arch.Dense, params, h0, c0 []float64, xs [][]float64) (ys []float64, hs, cs [][]float64) {
	shape.Validate()
	hid, m := shape.Hidden, shape.Inputs
	if len(params) != shape.NumParams() {
		panic(fmt.Sprintf("reference: dense parameters have length %d, want %d", len(params), shape.NumParams()))
	}
	if h0 == nil {
		h0 = make([]float64, hid)
	}
	if c0 == nil {
		c0 = make([]float64, hid)
	}
	if len(h0) != hid || len(c0) != hid {
		panic(fmt.Sprintf("reference: dense state has lengths %d, %d, want %d", len(h0), len(c0), hid))
	}
	ys = make([]float64, len(xs))
	hs = make([][]float64, len(xs)+1)
	cs = make([][]float64, len(xs)+1)
	hs[0] = append([]float64(nil), h0...)
	cs[0] = append([]float64(nil), c0...)
	pre := make([]float64, arch.NumGates)
	for t, x := range xs {
		if len(x) != m {
			panic(fmt.Sprintf("reference: input %d has length %d, want %d", t, len(x), m))
		}
		ys[t] = shape.OutBiasOf(params)
		hPrev, cPrev := hs[t], cs[t]
		h, c := make([]float64, hid), make([]float64, hid)
		for j := 0; j < hid; j++ {
			for q := 0; q < arch.NumGates; q++ {
				s := params[shape.IdxB(q, j)]
				for k := 0; k < m; k++ {
					s += params[shape.IdxWIH(q, j, k)] * x[k]
				}
				for k := 0; k < hid; k++ {
					s += params[shape.IdxWHH(q, j, k)] * hPrev[k]
				}
				pre[q] = s
			}
			c[j], h[j] = cellUpdate(pre, cPrev[j])
			ys[t] += params[shape.IdxOut(j)] * h[j]
		}
		hs[t+1], cs[t+1] = h, c
	}
	return ys, hs, cs
}

// cellUpdate returns (c, h) of one unit from its pre-activations pre[q] (gate
// order i, f, g, o) and its previous cell state.
func cellUpdate(pre []float64, cPrev float64) (c, h float64) {
	i := sigmoid(pre[arch.GateI])
	f := sigmoid(pre[arch.GateF])
	g := math.Tanh(pre[arch.GateG])
	o := sigmoid(pre[arch.GateO])
	c = f*cPrev + i*g
	return c, o * math.Tanh(c)
}
