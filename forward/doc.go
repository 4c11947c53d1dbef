// Package forward implements the hand-written forward-mode (real-time recurrent
// learning, RTRL) gradient engines of the paper (Javed, Shah, Sutton, White,
// JMLR 2023): a single LSTM column with its traces in the fast form (paper §3.1
// and Appendix B), exact RTRL for a fully connected LSTM (paper §2), and
// Columnar, Constructive and CCN networks as one staged network (paper §3)
// with online feature normalization (paper §3.4). Beyond the paper (its §6
// and Appendix A.8 future work), a network's stages may freeze when their
// features have converged instead of after a fixed number of steps
// (AutoFreeze), and frozen columns may keep their own traces so that frozen
// features keep learning slowly (FrozenTraces, FrozenGrad).
//
// Every engine works in float64, reads its parameters from the slice returned by
// Params at every step, and performs no allocation in Step or Grad. For every
// parameter p of a column the engines keep the traces
//
//	H_p = ∂h_t/∂p      C_p = ∂c_t/∂p
//
// and update them with the recurrence of docs/equations.md; Grad then returns ∂y_t/∂θ of
// the current prediction y_t. Parameter layouts are those of package arch.
//
// The Defect fields inject known mistakes (the authors' feature-timing mismatch,
// a dropped recurrent term); they exist only so that tests of the comparison
// against autodiff can show that the comparison detects them.
package forward
