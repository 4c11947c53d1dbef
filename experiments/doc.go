// Package experiments runs the paper's online prediction experiments (paper §4,
// Algorithm 1 of Appendix A.2): a learner (Columnar, Constructive or CCN from package
// forward, a dense LSTM with T-BPTT from package backward, or a dense LSTM with
// exact RTRL) predicts the discounted return of an environment stream with
// online TD(λ) (paper Algorithm 1):
//
//	y = v(x_0); z = 0
//	loop: observe x', cumulant c
//	      y' = v(x')
//	      δ  = c + γ·y' − y
//	      z  = γλ·z + ∇v(x)
//	      θ  = θ + Optimizer(α, δ·z)
//	      y  = y'
//
// The update direction δ·z goes through an Optimizer: Adam with β1 = 0
// (paper Table 1) or RMSProp as the authors' code runs it.
//
// Run executes one configured run (RunConfig) and writes curve.csv (the mean
// squared error against the true return G_t over a sliding window),
// predictions.csv and summary.json atomically into a directory.
package experiments
