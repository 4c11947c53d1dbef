package backward

import (
	"fmt"
	"slices"

	"github.com/ccn-go/ccn/arch"
)

var (
	_ arch.Engine            = (*TBPTT)(nil)
	_ arch.EngineOf[float32] = (*TBPTT32)(nil)
)

// TBPTT is the float64 engine, TBPTTOf[float64]; every result of the
// package's methods is that of this engine unless a run says float32.
type TBPTT = TBPTTOf[float64]

// TBPTT32 is the float32 engine, TBPTTOf[float32].
type TBPTT32 = TBPTTOf[float32]

// TBPTTOf is a dense LSTM learned by per-step sliding-window truncated
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
// The element type T is that of the parameters, the gradient, the state
// and every record of the window; inputs and predictions are float64. Both
// instances run this code; only the kernels differ, chosen by T when the
// engine is made (kernelsOf): float64 those of package lanes that the engine
// has always used, float32 their float32 counterparts (lanes.OuterSum32 and
// the others of lanes' tbptt32 files), whose rounding the check of package
// compare bounds (CheckFloat32TBPTT).
//
// A TBPTT is not safe for concurrent use.
type TBPTTOf[T arch.Float] struct {
	// Defect injects a known mistake; for tests of the comparison only.
	Defect Defect

	shape  arch.Dense
	k      int
	params []T
	kern   kernels[T]

	// h, c is the state after the last step; steps counts steps since Reset.
	h, c  []T
	steps int

	// History, one record per step; step s (1-based) lives in slot
	// (s−1) mod k, or slot s−1 when k = 0.
	xs    []T // m per record
	hPrev []T // H per record: h_{s−1}
	cPrev []T // H per record: c_{s−1}
	gates []T // 4H per record: i, f, g, o activations, index q·H+j
	tanhC []T // H per record: tanh(c_s)
	// nz per record: the indices of x_s's nonzero entries, for the sparse
	// sum of ∂W_ih (nil with k = 0 or without the kernel).
	nz [][]int32

	// Scratch for the forward pass: four pre-activations, and 4H float64s
	// for the float32 kernels' activations.
	acc     [4]T
	scratch []float64

	// Scratch for the backward pass.
	da         []T   // 4H per window step, newest first: δa_s
	xw, hw     [][]T // per window step: x_s and h_{s−1} (views)
	gw, tw, cw [][]T // per window step: gates, tanh(c_s) and c_{s−1} (views)
	dh, dhNext []T   // H each
	dcarry     []T   // H: f·δc flowing to the previous step
	nzw        [][]int32

	// denseOnly makes Grad sum ∂W_ih over every input, sparseAlways over
	// the nonzero ones whatever their number (tests and benchmarks compare
	// the two).
	denseOnly, sparseAlways bool
}

// NewTBPTT returns a float64 engine for shape with truncation k (k ≥ 1), or
// full BPTT when k = 0. Its parameters start at zero; set them through
// Params. It panics if k < 0 or the shape is invalid.
func NewTBPTT(shape arch.Dense, k int) *TBPTT { return NewTBPTTOf[float64](shape, k) }

// NewTBPTT32 is NewTBPTT for the float32 engine.
func NewTBPTT32(shape arch.Dense, k int) *TBPTT32 { return NewTBPTTOf[float32](shape, k) }

// NewTBPTTOf is NewTBPTT for the element type T.
func NewTBPTTOf[T arch.Float](shape arch.Dense, k int) *TBPTTOf[T] {
	if shape.Hidden < 1 || shape.Inputs < 1 {
		panic(fmt.Sprintf("backward: invalid dense shape H=%d m=%d", shape.Hidden, shape.Inputs))
	}
	if k < 0 {
		panic(fmt.Sprintf("backward: negative truncation %d", k))
	}
	H, m := shape.Hidden, shape.Inputs
	t := &TBPTTOf[T]{
		shape:   shape,
		k:       k,
		params:  make([]T, shape.NumParams()),
		kern:    kernelsOf[T](),
		h:       make([]T, H),
		c:       make([]T, H),
		scratch: make([]float64, 4*H),
		da:      make([]T, 4*H*k),
		xw:      make([][]T, k),
		hw:      make([][]T, k),
		gw:      make([][]T, k),
		tw:      make([][]T, k),
		cw:      make([][]T, k),
		dh:      make([]T, H),
		dhNext:  make([]T, H),
		dcarry:  make([]T, H),
	}
	t.xs = make([]T, k*m)
	t.hPrev = make([]T, k*H)
	t.cPrev = make([]T, k*H)
	t.gates = make([]T, k*4*H)
	t.tanhC = make([]T, k*H)
	if k > 0 && t.kern.outerSumSparse != nil {
		t.nz = make([][]int32, k)
		for r := range t.nz {
			t.nz[r] = make([]int32, 0, m)
		}
		t.nzw = make([][]int32, k)
	}
	return t
}

// Params returns the flat parameter vector in the arch.Dense layout. It is a
// view: writes change the engine's parameters, which every Step and Grad read.
func (t *TBPTTOf[T]) Params() []T { return t.params }

// NumParams returns the number of parameters, 4H·m + 4H·H + 4H + H (+1 with
// the output bias).
func (t *TBPTTOf[T]) NumParams() int { return len(t.params) }

// Shape returns the network's shape.
func (t *TBPTTOf[T]) Shape() arch.Dense { return t.shape }

// Truncation returns k (0 for full BPTT).
func (t *TBPTTOf[T]) Truncation() int { return t.k }

// Steps returns the number of steps taken since the last Reset.
func (t *TBPTTOf[T]) Steps() int { return t.steps }

// H returns a view of the current hidden state h_t; do not modify it.
func (t *TBPTTOf[T]) H() []T { return t.h }

// Reset clears the state and the history; the parameters are kept.
func (t *TBPTTOf[T]) Reset() {
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
	for r := range t.nz {
		t.nz[r] = t.nz[r][:0]
	}
}

// slot returns the record index of step s (1-based).
func (t *TBPTTOf[T]) slot(s int) int {
	if t.k == 0 {
		return s - 1
	}
	return (s - 1) % t.k
}

// grow extends s by n elements, reusing capacity (amortized doubling).
func grow[T arch.Float](s []T, n int) []T {
	return slices.Grow(s, n)[:len(s)+n]
}

// Step advances the LSTM by one step on input x (length m) with the current
// parameters and returns the prediction
//
//	y_t = w_out·h_t + b_out      (b_out only with arch.Dense.OutBias)
//
// It panics if len(x) != m.
func (t *TBPTTOf[T]) Step(x []float64) float64 {
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
	t.kern.input(xr, x)
	if t.nz != nil {
		nz := t.nz[r][:0]
		for j, v := range xr {
			if v != 0 {
				nz = append(nz, int32(j))
			}
		}
		t.nz[r] = nz
	}
	copy(hp, t.h)
	copy(cp, t.c)

	wih, whh, b, wout := split(t.shape, t.params)
	// Pre-activations four rows at a time (b, then W_ih·x, then W_hh·h in
	// that order), then the activations of each gate's block of H rows.
	a := &t.acc
	for row := 0; row < 4*H; row += 4 {
		*a = [4]T{b[row], b[row+1], b[row+2], b[row+3]}
		t.kern.dot4(a, wih[row*m:(row+4)*m], xr)
		t.kern.dot4(a, whh[row*H:(row+4)*H], hp)
		copy(gr[row:row+4], a[:])
	}
	t.kern.gates(gr, t.scratch)
	for j := range H {
		i, f, g := gr[j], gr[H+j], gr[2*H+j]
		t.c[j] = f*cp[j] + i*g
	}
	t.kern.tanh(tc, t.c, t.scratch)
	var y T
	if t.shape.OutBias {
		y = t.params[t.shape.IdxOutBias()]
	}
	for j := range H {
		t.h[j] = gr[3*H+j] * tc[j]
		y += wout[j] * t.h[j]
	}
	t.steps++
	return float64(y)
}

// Grad writes into dst (length NumParams) the truncated gradient ∂y_t/∂θ of
// the last prediction, backpropagating through the last k steps (all steps
// when k = 0 or t ≤ k) with the stored activations and the current W_hh and
// w_out. It panics if len(dst) != NumParams or no step was taken since Reset.
func (t *TBPTTOf[T]) Grad(dst []T) {
	if len(dst) != len(t.params) {
		panic(fmt.Sprintf("backward: gradient has length %d, want %d", len(dst), len(t.params)))
	}
	if t.steps == 0 {
		panic("backward: Grad before Step")
	}
	H, m := t.shape.Hidden, t.shape.Inputs
	_, whh, _, wout := split(t.shape, t.params)
	gwih, gwhh, gb, gwout := split(t.shape, dst)
	if t.kern.setsWeights {
		clear(dst[t.shape.OffB():])
	} else {
		clear(dst)
	}
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
	r := t.slot(t.steps)
	for n := range window {
		t.xw[n], t.hw[n], t.cw[n] = t.xs[r*m:(r+1)*m], t.hPrev[r*H:(r+1)*H], t.cPrev[r*H:(r+1)*H]
		t.gw[n], t.tw[n] = t.gates[r*4*H:(r+1)*4*H], t.tanhC[r*H:(r+1)*H]
		if t.nz != nil {
			t.nzw[n] = t.nz[r]
		}
		// The record of the step before: one back around the ring of k
		// records (slot without a division per step).
		if r--; r < 0 {
			r = t.k - 1
		}
	}
	if t.Defect == OffByOneWindow && t.k > 0 && t.steps >= t.k {
		t.hw[window-1], t.cw[window-1] = t.h, t.c
	}
	copy(t.dh, wout)
	das := t.da[:4*H*window]
	if t.Defect == DropForgetPath {
		t.backwardWithoutCarry(das, whh, window)
	} else {
		t.kern.backward(das, t.dh, t.dcarry, t.dhNext, whh, t.gw[:window], t.tw[:window], t.cw[:window])
	}
	if t.sparseWorth(window, das) {
		t.kern.outerSumSparse(gwih, das, t.xw[:window], t.nzw[:window])
	} else {
		t.kern.outerSum(gwih, das, t.xw[:window])
	}
	t.kern.outerSum(gwhh, das, t.hw[:window])
	t.kern.sumWindow(gb, das)
}

// sparseWorth reports whether Grad sums ∂W_ih over the window's nonzero
// inputs only: when at most one input in eight is nonzero (the scattered
// sum is faster up to 12% on and slower from 16-25%,
// BenchmarkSparseThreshold; the pixel games' inputs are 2-8% nonzero) and δa
// is finite, where the two sums agree bitwise (lanes.OuterSumSparse; Grad
// clears the gradient to +0 first).
func (t *TBPTTOf[T]) sparseWorth(window int, das []T) bool {
	if t.nz == nil || t.denseOnly {
		return false
	}
	nnz := 0
	for _, l := range t.nzw[:window] {
		nnz += len(l)
	}
	if 8*nnz > window*t.shape.Inputs && !t.sparseAlways {
		return false
	}
	return t.kern.allFinite(das)
}

// backwardWithoutCarry is the kernels' LSTMBackward with the defect DropForgetPath:
// step by step, the carry f·δc cleared after each, so that the cell
// gradient reaches the step before only through h.
func (t *TBPTTOf[T]) backwardWithoutCarry(das, whh []T, window int) {
	H := t.shape.Hidden
	dh, next := t.dh, t.dhNext
	clear(t.dcarry)
	for n := range window {
		dan := das[n*4*H : (n+1)*4*H]
		t.kern.delta(dan, dh, t.dcarry, t.gw[n], t.tw[n], t.cw[n])
		clear(t.dcarry)
		if n < window-1 {
			clear(next)
			t.kern.addMulT(next, whh, dan)
			dh, next = next, dh
		}
	}
}
