// Package report draws the paper's trace patterning figures (§4 and Appendix A) from a
// results directory written by ccn sweep, without running anything, and the
// truncation study's figures (package truncation) when the directory holds
// them.
//
// For each study it reads the saved plan (DIR/plans/STUDY-SCALE.json), finds
// each group's selected configuration (the best over the sweep seeds, package
// sweep) and reads that configuration's runs over the final seeds
// (DIR/runs/ID/curve.csv, predictions.csv, summary.json). A learning curve is
// the mean over the n final-seed runs that completed without diverging, with
// its standard error, at every logged step:
//
//	ē(t) = (1/n) Σᵢ eᵢ(t)     s.e.(t) = sqrt(Σᵢ (eᵢ(t) − ē(t))² / (n − 1)) / √n
//
// where eᵢ(t) is run i's mean squared return error over the previous window
// of steps (paper §4: 100,000 steps).
//
// The figures and the studies they come from (experiments/configs):
//
//	learning-curves         Figure 4  main-comparison: CCN, Columnar, Constructive, best T-BPTT
//	compute-matched-tbptt   Figure 5  compute-matched-tbptt: k:H pairs and their final errors, CCN's final error
//	truncation-h10          Figure 6  truncation-h10: H = 10, k = 1..15 and their final errors, CCN's final error
//	predictions             Figure 10 main-comparison: predictions and true return, one final seed
//	normalization-ablation  Figure 12 normalization-ablation: CCN with and without normalization
//	ccn-ablations           Figure 14 ccn-features-per-stage and ccn-steps-per-stage, each with its final errors
//	atari-normalized-error  Figure 8  atari-main-comparison: CCN's error over the reference T-BPTT's, per game
//	atari-average-error     Figure 9  atari-main-comparison: CCN, Columnar, Constructive, averaged over games
//	atari-predictions       Figure 10 atari-main-comparison: CCN and the reference T-BPTT against the return, a panel per game
//	atari-normalized-curves beyond the paper, atari-main-comparison: Figs. 8 and 9 along the run, each curve over T-BPTT's
//	atari-tbptt-capacity    Figure 11 atari-tbptt-capacity: k = 8, H = 2..15 and H = 8, k = 2..15, normalized at 15
//	atari-normalization     Figure 13 atari-normalization-ablation: CCN with and without normalization, per game
//	stream                  Figure 3  the trace patterning stream (no results needed)
//	online-gradients        beyond the paper, online-gradients: CCN, Columnar, T-BPTT, SnAp-1, UORO at matched compute
//	dependency-length       beyond the paper, dependency-length: final error over the best constant's against the ISI
//	dependency-length-curves beyond the paper, dependency-length: learning curves per ISI range
//	auto-freezing           beyond the paper, auto-freezing: final error over the best constant's per stage schedule, fixed and auto
//	auto-freezing-stages    beyond the paper, auto-freezing: where the auto schedule's stages froze, beside the fixed schedules'
//	auto-freezing-atari[-stages] the same two of auto-freezing-atari (seaquest, medium scale)
//	frames                  Figure 7  the five pixel games' screens and frames (no results needed)
//	gradient_bias, cost     the truncation study (DIR/truncation, package truncation)
//	gradient_estimators     the truncation study: T-BPTT, SnAp-1, UORO, dense RTRL, error against cost
//
// Every error figure states scale, steps and seeds in its title and draws the
// best constant prediction's error (Baseline) as a labelled reference line.
// RenderStudy draws the figures of any experiment file (StudyBuilders).
//
// A figure whose data are missing is skipped with a *plots.MissingError that
// says what is missing (a study never swept, a sweep stage not settled, a group
// without complete final runs), never drawn with an empty axis.
//
// WriteClaims writes the paper's trace patterning claims as Markdown tables
// (docs/results.md, `ccn collect DIR --markdown FILE`): per group the final
// error's mean ± s.e., median, s.d. and the runs that never beat the best
// constant, and per claim a comparison of two groups that does not assume
// normality, the bootstrap intervals of the differences of medians and means
// and the Mann-Whitney U test,
//
//	Δ = f(B) − f(A)      f = median or mean      p: two-sided, U normal approximation
//
// WriteAtariClaims writes the paper's Atari claims (§5, Figures 8, 9, 11 and
// 13) from the medium-scale results (docs/atari.md): per group and game the
// error over the best constant's and over the selected T-BPTT's (package
// sweep, Normalize) with medians, bursts and divergences, and per claim a
// measure averaged over the G games with a percentile bootstrap interval
// that resamples every group's final seeds on every game,
//
//	v = (1/G) Σ_g f(ē_g)      ē_g: the groups' mean final errors on game g
//
// (f a ratio or a difference of those means); WriteAtariSensitivity the
// selection a per-game rule would make beside the one across games.
package report
