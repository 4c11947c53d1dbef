// Package arch owns the one topology description and parameter layout that every
// gradient engine of this module shares: the hand-written forward-mode RTRL engine
// (package forward), the hand-written reverse-mode T-BPTT engine (package backward)
// and the Gorgonia autodiff graphs (packages graph and reference).
//
// Gate order is i, f, g, o everywhere (PyTorch's order, so users can cross-check):
//
//	a_q = W_q·x + U_q·h_prev + b_q      q ∈ {i, f, g, o}
//	i = σ(a_i)  f = σ(a_f)  g = tanh(a_g)  o = σ(a_o)
//	c = f·c_prev + i·g
//	h = o·tanh(c)
//
// A dense LSTM with H hidden units and m inputs (paper §2.2, used by T-BPTT in §4.1) stores its
// parameters in one flat vector, in this order:
//
//	W_ih  4H×m, row-major, row q·H+j is gate q of unit j
//	W_hh  4H×H, row-major
//	b     4H
//	w_out H      (prediction y = w_out·h + b_out)
//	b_out 1      (only with Dense.OutBias; without it y = w_out·h)
//
// A column (paper §3.1 and Appendix B) is the H = 1 case: W_hh holds the recurrent
// scalars u_i, u_f, u_g, u_o, and a column's own parameters are the first 4m+8
// entries of that layout.
//
// Network describes Columnar, Constructive and CCN networks (paper §3) as stages of
// columns; see network.go for its two flat vectors (frozen and learnable).
//
// The registry of methods (registry.go) holds what the rest of the module
// knows about each learning method (Method) besides its engine: its family,
// legend label and legend texts, colour, the settings that size it, a
// network's features per stage, whether its gradient is stochastic, its
// operation counts per step (the paper's compute model and the
// implementation's; package opcount attaches the built-in methods', which
// need their engines), how the run-time gate covers it, and for a learner
// added with Register its constructor (docs/extending.md, "Add a learner").
package arch
