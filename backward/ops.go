package backward

import "github.com/ccn-go/ccn/arch"

// OpsPerStep returns the exact number of arithmetic operations one Step
// followed by one Grad performs in steady state, i.e. with a full window of k
// steps (see Ops for the accounting). For k = 0 (full BPTT) the window is the
// whole trajectory, so the count is that of the current number of steps since
// Reset (at least 1) and it grows with t.
func (t *TBPTTOf[T]) OpsPerStep() int {
	w := t.k
	if w == 0 {
		w = max(t.steps, 1)
	}
	return Ops(t.shape, w)
}

// Ops returns the exact number of arithmetic operations one Step plus one
// Grad of a TBPTT of the given shape performs when the backward window holds
// window ≥ 1 steps, with Defect NoDefect. Every floating-point multiply, add and
// subtract counts one; each gate nonlinearity (σ or tanh) and each tanh(c)
// counts one; copies, clears and index arithmetic count nothing. Starting an
// accumulator at the bias or at a stored value costs nothing.
//
//	forward  F = 4H·(2m + 2H + 1)        pre-activations (mul+add each term) and σ/tanh
//	           + 7H                      c = f·c' + i·g (3), tanh c (1), h = o·tanh c (1), y += w·h (2)
//	         = 8Hm + 8H² + 11H
//	per window step
//	         S = 21H                     δc (5), δo (1), δi δg δf (3), δa_i δa_f δa_g δa_o (3 each)
//	           + 4H·(2m + 2H + 1)        ∂W_ih, ∂W_hh (mul+add), ∂b (add)
//	         = 8Hm + 8H² + 25H
//	except the oldest, which also carries the gradient back
//	         E = 8H² + H                 δh_{s−1} = W_hhᵀ·δa (mul+add), f·δc (1)
//	total    F + w·S + (w−1)·E       (+1 with the output bias: y += b_out)
//
// The paper's compute model (Appendix A.7) counts a multiply-add as
// one operation and ignores the element-wise terms: (k+1)·(4H² + 4Hm + 4H).
// Counting mul and add separately, F and S are each about twice one of its
// forward passes, and E (the W_hhᵀ product the paper's estimate folds into
// its k backward passes) adds another.
func Ops(shape arch.Dense, window int) int {
	shape.Validate()
	if window < 1 {
		panic("backward: window must be at least 1")
	}
	H, m := shape.Hidden, shape.Inputs
	f := 8*H*m + 8*H*H + 11*H
	s := 8*H*m + 8*H*H + 25*H
	e := 8*H*H + H
	ops := f + window*s + (window-1)*e
	if shape.OutBias {
		ops++
	}
	return ops
}
