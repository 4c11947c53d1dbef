// Package opcount counts arithmetic operations (+, −, ×, ÷ count one each)
// per step of each learning method, two ways: the paper's compute model
// (Appendix A.7; docs/equations.md), an estimate, and this module's exact
// count of what its engines do (Implementation); and it does compute
// matching, which picks for a per-step budget the largest network each
// method can afford. It computes nothing itself: it counts.
//
// With |h| features, |x| inputs, truncation k and u features learned per
// stage:
//
//	T-BPTT (dense LSTM):  (k+1)·(4|h|² + 4|h||x| + 4|h|)
//	Columnar:             |h|(4|x| + 8) + 6|h|(4|x| + 8)
//	CCN:                  |h|(2|h| + 4|x| + 4) + 6u(2|h| + 4|x| + 4)
//	Constructive:         CCN with u = 1
//
// A forward pass of an LSTM cell costs about 4 operations per input it reads
// plus 4; T-BPTT spends k more forward passes' worth on the gradient, and
// forward-mode learning of a column about six operations per learning
// parameter (paper Appendix B). These are the paper's estimates, not exact counts of this module's
// engines; those report their own counts (OpsPerStep methods), which Implementation returns.
//
// Both counts of every built-in method are attached to its entry in the
// registry of methods (arch.CountBuiltin, when this package is initialized):
// Config.Ops, Config.Implementation and Matched ask the entry (arch.Info), so
// a method added with arch.Register, bringing its own counts, is counted and
// matched the same way.
package opcount
