// Package backward is the hand-written reverse-mode engine of the T-BPTT
// baseline (paper §2 and §4, Appendix A.7; docs/equations.md): a fully connected LSTM
// with H hidden units reading m inputs, prediction y_t = w_out·h_t, whose
// gradient ∂y_t/∂θ is computed at every step by backpropagating through the
// last k steps only.
//
// The window slides by one step each step and is recomputed in full (cost
// about k+1 forward passes per step); it is not an update every k steps on
// disjoint windows. With window W = {t−k+1, …, t} the state (h, c) entering
// step t−k+1, the state at t−k, is a constant:
//
//	∂y_t/∂θ ≈ Σ_{s∈W} (∂y_t/∂a_s)·(∂a_s/∂θ)|direct
//
// where a_s are the gate pre-activations of step s. When t ≤ k the window
// reaches the initial (zero) state and the gradient is exact; k = 0 selects
// full BPTT (window = whole trajectory since the last Reset).
//
// Parameters use the flat arch.Dense layout (W_ih, W_hh, b, w_out; gate order
// i, f, g, o). The backward pass reads the gate activations stored by the
// forward pass of each step, computed with the parameters of that time, and
// the current W_hh and w_out: T-BPTT with stored activations, as PyTorch does
// with a detached history. While the parameters do not change this is the
// exact truncated gradient; when an optimizer changes them between steps it is
// the usual online approximation (nothing is recomputed with new parameters).
//
// ∂W_ih = Σ_s δa_s ⊗ x_s is summed over the nonzero inputs only when at most
// one in eight is nonzero (the pixel games' inputs are 2-8% nonzero): the
// same bits as the dense sum, since the products left out are zeros added to
// sums that start at +0 (lanes.OuterSumSparse states the conditions; Grad
// falls back to the dense sum when δa is not finite).
//
// The Defect field injects known mistakes so the teeth tests of package
// compare can show the comparison catches them; it is for those tests only.
package backward
