// Package truncation is the study of T-BPTT's truncation length beyond the
// paper (its §4.2 and Figures 5, 6 and 11 show T-BPTT's sensitivity to k;
// Appendix A.7 gives the operation counts that the cost part measures),
// widened to the other affordable approximations of RTRL that the paper's
// abstract and introduction (§1) set CCN against: SnAp-1 (biased) and UORO
// (unbiased, noisy).
//
// Gradient bias. For a fixed random dense LSTM with H hidden units, the
// truncated gradient g_k of the prediction y_T of the last step of a
// trajectory of T steps from the trace patterning stream (backpropagated
// through the last k steps only, package backward) is compared with the exact
// gradient g of full BPTT over the trajectory from the Gorgonia reference
// (package reference):
//
//	relative error    ‖g_k − g‖ / ‖g‖
//	cosine similarity g_k·g / (‖g_k‖·‖g‖)
//
// averaged over many trajectories (random offsets into the stream) and seeds,
// for k = 1..MaxK. The inter-stimulus interval of the task, 24 to 36 steps,
// is the span T-BPTT has to cover to tie the CS to the US. On the same
// networks and trajectories the same two measures are taken of SnAp-1
// (forward.SnAp1), of UORO (forward.UORO, Draws independent estimates per
// trajectory: mean and spread over draws) and of dense exact RTRL
// (forward.DenseRTRL, a third witness of the exact gradient besides full
// BPTT), each with its operations per step (its own OpsPerStep) and its
// measured nanoseconds per step.
//
// Cost. Wall-clock microseconds per step (Step then Grad) against the number
// of parameters, for Columnar RTRL, CCN at its last stage, T-BPTT at several k
// and exact dense RTRL: the paper's claim that Columnar and CCN learn with
// exact gradients at a cost linear in the parameters, where dense RTRL costs
// O(H⁴), that is O(|θ|²), per step:
//
//	T-BPTT:  (k+1)·(4H² + 4Hm + 4H)      CCN, Columnar: O(|θ|)
//	dense RTRL: O(H⁴ + H³m)
//
// Results are plain structs with CSV writers and readers; package report
// draws the figures from the CSV files (report.RenderTruncation), so they can
// be drawn again without running the study.
package truncation
