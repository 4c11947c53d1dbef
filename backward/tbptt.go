package backward

import (
	"fmt"
	"slices"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

var _ arch.Engine = (*TBPTT)(nil)

// TBPTT is a dense LSTM learned by per-step sliding-window truncated
// backpropagation through time (paper §1 and §4.1; docs/equations.md, T-BPTT window).
//
// Each Step stores in a ring buffer of k slots what the backward pass needs:
// the input x_s, the previous state (h_{s−1}, c_{s−1}), the gate activations
// i, f, g, o and tanh(c_s). Grad then walks the window newest to oldest:
//
//	δh_t = w_out                       δc = 0 above the newest step
//	δc_s = δh_s·o·(1 − tanh²c_s) + f_{s+1}·δc_{s+1}
//	δa_i = δc_s·g·i(1−i)   δa_f = δc_s·c_{s−1}·f(1−f)
//	δa_g = δc_s·i·(1−g²)   δa_o = δh_s·tanh(c_s)·o(1−o)
//	∂W_ih += δa ⊗ x_s   ∂W_hh += δa ⊗ h_{s−1}   ∂b += δa
//	δh_{s−1} = W_hhᵀ·δa
//
// stopping at the oldest step of the window, whose previous state is the
// constant state at t−k. The w_out part of the gradient is h_t, the b_out
// part (with arch.Dense.OutBias) is 1.
//
// With k = 0 (full BPTT) the buffers grow by one record per step (amortized
// append): memory grows linearly with the number of steps since Reset, and so
// does the cost of Grad.
//
// A TBPTT is not safe for concurrent use.
type TBPTT struct {
	// Defect injects a known mistake; for tests of the comparison only.
	Defect Defect

	shape  arch.Dense
	k      int
	params []float64

	// h, c is the state after the last step; steps counts steps since Reset.
	h, c  []float64
	steps int

	// History, one record per step; step s (1-based) lives in slot
	// (s−1) mod k, or slot s−1 when k = 0.
	xs    []float64 // m per record
	hPrev []float64 // H per record: h_{s−1}
	cPrev []float64 // H per record: c_{s−1}
	gates []float64 // 4H per record: i, f, g, o activations, index q·H+j
	tanhC []float64 // H per record: tanh(c_s)

	// Scratch for the backward pass.
	da         []float64   // 4H per window step, newest first: δa_s
	xw, hw     [][]float64 // per window step: x_s and h_{s−1} (views)
	gw, tw, cw [][]float64 // per window step: gates, tanh(c_s) and c_{s−1} (views)
	dh, dhNext []float64   // H each
	dcarry     []float64   // H: f·δc flowing to the previous step
}

// NewTBPTT returns an engine for shape with truncation k (k ≥ 1), or full BPTT
// when k = 0. Its parameters start at zero; set them through Params. It panics
// if k < 0 or the shape is invalid.
func NewTBPTT(shape arch.Dense, k int) *TBPTT {
	if shape.Hidden < 1 || shape.Inputs < 1 {
		panic(fmt.Sprintf("backward: invalid dense shape H=%d m=%d", shape.Hidden, shape.Inputs))
	}
	if k < 0 {
		panic(fmt.Sprintf("backward: negative truncation %d", k))
	}
	H, m := shape.Hidden, shape.Inputs
	t := &TBPTT{
		shape:  shape,
		k:      k,
		params: make([]float64, shape.NumParams()),
		h:      make([]float64, H),
		c:      make([]float64, H),
		da:     make([]float64, 4*H*k),
		xw:     make([][]float64, k),
		hw:     make([][]float64, k),
		gw:     make([][]float64, k),
		tw:     make([][]float64, k),
		cw:     make([][]float64, k),
		dh:     make([]float64, H),
		dhNext: make([]float64, H),
		dcarry: make([]float64, H),
	}
	t.xs = make([]float64, k*m)
	t.hPrev = make([]float64, k*H)
	t.cPrev = make([]float64, k*H)
	t.gates = make([]float64, k*4*H)
	t.tanhC = make([]float64, k*H)
	return t
}

// Params returns the flat parameter vector in the arch.Dense layout. It is a
// view: writes change the engine's parameters, which every Step and Grad read.
func (t *TBPTT) Params() []float64 { return t.params }

// NumParams returns the number of parameters, 4H·m + 4H·H + 4H + H (+1 with
// the output bias).
func (t *TBPTT) NumParams() int { return len(t.params) }

// Shape returns the network's shape.
func (t *TBPTT) Shape() arch.Dense { return t.shape }

// Truncation returns k (0 for full BPTT).
func (t *TBPTT) Truncation() int { return t.k }

// Steps returns the number of steps taken since the last Reset.
func (t *TBPTT) Steps() int { return t.steps }

// H returns a view of the current hidden state h_t; do not modify it.
func (t *TBPTT) H() []float64 { return t.h }

// Reset clears the state and the history; the parameters are kept.
func (t *TBPTT) Reset() {
	clear(t.h)
	clear(t.c)
	t.steps = 0
	if t.k == 0 {
		t.xs, t.hPrev, t.cPrev = t.xs[:0], t.hPrev[:0], t.cPrev[:0]
		t.gates, t.tanhC = t.gates[:0], t.tanhC[:0]
		return
	}
	clear(t.xs)
	clear(t.hPrev)
	clear(t.cPrev)
	clear(t.gates)
	clear(t.tanhC)
}

// slot returns the record index of step s (1-based).
func (t *TBPTT) slot(s int) int {
	if t.k == 0 {
		return s - 1
	}
	return (s - 1) % t.k
}

// grow extends s by n elements, reusing capacity (amortized doubling).
func grow(s []float64, n int) []float64 {
	return slices.Grow(s, n)[:len(s)+n]
}

// Step advances the LSTM by one step on input x (length m) with the current
// parameters and returns the prediction
//
//	y_t = w_out·h_t + b_out      (b_out only with arch.Dense.OutBias)
//
// It panics if len(x) != m.
func (t *TBPTT) Step(x []float64) float64 {
	H, m := t.shape.Hidden, t.shape.Inputs
	if len(x) != m {
		panic(fmt.Sprintf("backward: input has length %d, want %d", len(x), m))
	}
	if t.k == 0 {
		t.xs = grow(t.xs, m)
		t.hPrev = grow(t.hPrev, H)
		t.cPrev = grow(t.cPrev, H)
		t.gates = grow(t.gates, 4*H)
		t.tanhC = grow(t.tanhC, H)
	}
	r := t.slot(t.steps + 1)
	xr := t.xs[r*m : (r+1)*m]
	hp := t.hPrev[r*H : (r+1)*H]
	cp := t.cPrev[r*H : (r+1)*H]
	gr := t.gates[r*4*H : (r+1)*4*H]
	tc := t.tanhC[r*H : (r+1)*H]
	copy(xr, x)
	copy(hp, t.h)
	copy(cp, t.c)

	wih, whh, b, wout := t.shape.Split(t.params)
	// Pre-activations four rows at a time (b, then W_ih·x, then W_hh·h in
	// that order), then the activations of each gate's block of H rows.
	for row := 0; row < 4*H; row += 4 {
		a := [4]float64{b[row], b[row+1], b[row+2], b[row+3]}
		lanes.Dot4(&a, wih[row*m:(row+4)*m], xr)
		lanes.Dot4(&a, whh[row*H:(row+4)*H], hp)
		copy(gr[row:row+4], a[:])
	}
	lanes.Sigmoid(gr[:2*H], gr[:2*H])
	lanes.Tanh(gr[2*H:3*H], gr[2*H:3*H])
	lanes.Sigmoid(gr[3*H:], gr[3*H:])
	for j := range H {
		i, f, g := gr[j], gr[H+j], gr[2*H+j]
		t.c[j] = f*cp[j] + i*g
	}
	lanes.Tanh(tc, t.c)
	y := t.shape.OutBiasOf(t.params)
	for j := range H {
		t.h[j] = gr[3*H+j] * tc[j]
		y += wout[j] * t.h[j]
	}
	t.steps++
	return y
}

// Grad writes into dst (length NumParams) the truncated gradient ∂y_t/∂θ of
// the last prediction, backpropagating through the last k steps (all steps
// when k = 0 or t ≤ k) with the stored activations and the current W_hh and
// w_out. It panics if len(dst) != NumParams or no step was taken since Reset.
func (t *TBPTT) Grad(dst []float64) {
	if len(dst) != len(t.params) {
		panic(fmt.Sprintf("backward: gradient has length %d, want %d", len(dst), len(t.params)))
	}
	if t.steps == 0 {
		panic("backward: Grad before Step")
	}
	H, m := t.shape.Hidden, t.shape.Inputs
	_, whh, _, wout := t.shape.Split(t.params)
	gwih, gwhh, gb, gwout := t.shape.Split(dst)
	clear(dst)
	copy(gwout, t.h)
	if t.shape.OutBias {
		dst[t.shape.IdxOutBias()] = 1
	}

	window := t.steps
	if t.k > 0 && t.k < window {
		window = t.k
	}
	if t.k == 0 {
		t.da = grow(t.da[:0], 4*H*window)
		t.xw = slices.Grow(t.xw[:0], window)[:window]
		t.hw = slices.Grow(t.hw[:0], window)[:window]
		t.gw = slices.Grow(t.gw[:0], window)[:window]
		t.tw = slices.Grow(t.tw[:0], window)[:window]
		t.cw = slices.Grow(t.cw[:0], window)[:window]
	}
	// The views of the window's records, newest to oldest; then δa of every
	// step of the window (lanes.LSTMBackward, the recursion above); then
	// the weight gradients as sums over the window, ∂W_ih = Σ_s δa_s ⊗ x_s,
	// ∂W_hh = Σ_s δa_s ⊗ h_{s−1}, ∂b = Σ_s δa_s, each entry summed newest
	// to oldest.
	for n := range window {
		r := t.slot(t.steps - n)
		t.xw[n], t.hw[n], t.cw[n] = t.xs[r*m:(r+1)*m], t.hPrev[r*H:(r+1)*H], t.cPrev[r*H:(r+1)*H]
		t.gw[n], t.tw[n] = t.gates[r*4*H:(r+1)*4*H], t.tanhC[r*H:(r+1)*H]
	}
	if t.Defect == OffByOneWindow && t.k > 0 && t.steps >= t.k {
		t.hw[window-1], t.cw[window-1] = t.h, t.c
	}
	copy(t.dh, wout)
	das := t.da[:4*H*window]
	if t.Defect == DropForgetPath {
		t.backwardWithoutCarry(das, whh, window)
	} else {
		lanes.LSTMBackward(das, t.dh, t.dcarry, t.dhNext, whh, t.gw[:window], t.tw[:window], t.cw[:window])
	}
	lanes.OuterSum(gwih, das, t.xw[:window])
	lanes.OuterSum(gwhh, das, t.hw[:window])
	lanes.SumWindow(gb, das)
}

// backwardWithoutCarry is lanes.LSTMBackward with the defect DropForgetPath:
// step by step, the carry f·δc cleared after each, so that the cell
// gradient reaches the step before only through h.
func (t *TBPTT) backwardWithoutCarry(das, whh []float64, window int) {
	H := t.shape.Hidden
	dh, next := t.dh, t.dhNext
	clear(t.dcarry)
	for n := range window {
		dan := das[n*4*H : (n+1)*4*H]
		lanes.LSTMDelta(dan, dh, t.dcarry, t.gw[n], t.tw[n], t.cw[n])
		clear(t.dcarry)
		if n < window-1 {
			clear(next)
			lanes.AddMulT(next, whh, dan)
			dh, next = next, dh
		}
	}
}
