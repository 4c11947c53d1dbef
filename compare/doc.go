// Package compare proves the hand-written gradient engines equal to the Gorgonia
// ground truth of package reference, on random trajectories.
//
// Agreement between an engine's gradient a and the reference b is measured as
//
//	rel = max_i |a_i − b_i| / max(1, max_i |b_i|)
//
// and a check passes when rel ≤ Tolerance (1e-10) in float64. Every engine is
// checked at several time steps t (the gradient of y_t) and on random linear
// combinations Σ_t a_t·y_t of all predictions of a trajectory:
//
//   - forward.Column and forward.DenseRTRL (exact RTRL, paper Appendix B) against full BPTT;
//   - backward.TBPTT (docs/equations.md) against the k-truncated reference for each k;
//   - forward.SnAp1 (docs/equations.md, SnAp-1) against full BPTT where it is
//     exact (H = 1, W_hh zero off the diagonal: rows "dense-diag") and against
//     MaskedRTRL, the documented approximation computed independently, otherwise;
//   - forward.UORO (docs/equations.md, UORO), an unbiased random estimate,
//     statistically (CheckUORO, rows "uoro"): the mean over independent
//     draws on a fixed trajectory against exact RTRL, within its standard
//     error;
//   - forward.Network (Columnar, Constructive, CCN; paper §3) against
//     the reference network graph built from the same arch.Network;
//   - forward.Network followed through stage changes (CheckStaged, paper
//     §3.2–3.3): after each AdvanceStage the reference carries the parameters
//     over by itself and enters the new stage from the state and
//     normalization statistics its own forward pass reached;
//   - forward.Network whose stages freeze when learned (CheckAutoStaged,
//     docs/stages.md): the reference freezes at the steps the engine's
//     forward.AutoFreeze test picked;
//   - forward.Network whose frozen columns keep their traces
//     (CheckFrozenTraces, docs/stages.md) against the graph in which every
//     column reads the earlier features as constants; FrozenBias measures
//     how far that gradient is from the exact one;
//   - forward.Linear, the memoryless control (CheckLinear), and forward.RTU,
//     Recurrent Trace Units (CheckRTU, docs/rtu.md), with and without the
//     online normalization, against the unrolled graph of the same layer.
//
// Injection names known mistakes (ccn verify --inject, ccn run --inject) that
// the checks must catch. RunGate is the gradient gate before a run, the
// whole of its policy (which engines, on which stretch of the run's own
// input stream, after which warm-up) in one place: ccn run and ccn sweep use
// it, and a library user passes it as experiments.Options.Gate. Gate runs the
// checks of a GateSpec.
//
// The random trajectories (parameters at several scales, Gaussian and
// sparse-binary inputs, and for T-BPTT rows inputs as sparse as the pixel
// games', where its sum of ∂W_ih runs over the nonzero inputs only) live
// in trajectory.go so that tests, the verify command
// and the run-time gate share them.
package compare
