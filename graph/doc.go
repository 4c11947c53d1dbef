// Package graph builds unrolled LSTM computations as Gorgonia expression graphs:
// the autodiff ground truth that every hand-written gradient of this module is
// compared against (paper §2 for the dense LSTM and T-BPTT, §3 for Columnar,
// Constructive and CCN networks; docs/equations.md).
//
// Every graph computes, over a window of n steps,
//
//	y_t = prediction at step t          (t = 1..n)
//	L   = Σ_t a_t·y_t                   (a is an input node)
//
// and holds the symbolic gradient of L with respect to the learnable parameter
// nodes. Parameters, inputs, weights a and everything held constant for the
// gradient (initial state, frozen columns, normalization statistics) are input
// nodes, so one graph serves every trajectory of its shape: bind new values with
// the Bind methods (gorgonia.Let underneath) and run the graph again. Values are
// bound from, and gradients gathered into, the flat vectors of package arch.
// A network graph can also take every stage's parameters as targets and cut
// the columns' reads of earlier features (NetworkOpts).
//
// Known Gorgonia v0.9.18 behaviour this package works around or documents:
// input nodes with equal name, type and shape are merged, so every input node
// here has a unique name; collecting per-step vectors with Concat and Reshape
// into one output product gave wrong gradients on long windows, so outputs
// are per-step scalar nodes; its float64 sigmoid returns exactly 1 for
// arguments above 19 (σ(19) = 1 − 5.6e-9), so pre-activations that large
// differ from math.Exp-based engines at that level. Graphs are not safe for
// concurrent use.
package graph
