// Package sweep runs the paper's hyperparameter studies (paper §4 and Appendix
// "Hyperparameter Settings", Table 1): a grid of run configurations per method,
// each over a few sweep seeds, then the best configuration per method over many
// final seeds.
//
// A Study is read from an experiment file (YAML, see experiments/configs) and
// expanded for one of its scales into a Plan: groups (one per method or
// variant), each with candidate configurations (the grid points). Selection
// ranks a group's candidates by the mean final-window error over the sweep
// seeds,
//
//	score(c) = (1/|S|) Σ_{s∈S} L_s(c)      S = sweep seeds, L = final windowed error
//
// with candidates that had a diverged or failed run ranked after all others,
// and runs the best one over the final seeds. A study over several
// environments (the Atari games, paper §5) may instead select one candidate
// per method for all of them (Plan.RankAcrossEnvs: the mean over the
// environments of the error relative to the best constant prediction's), and
// normalizes each method's final error by the selected T-BPTT's on the same
// environment, with bootstrap intervals (Normalized).
//
// Every run lives in DIR/runs/ID, where ID is derived from a hash of the
// resolved experiments.RunConfig (which experiments.Run stores inside, in
// summary.json). A run whose directory holds summary.json is complete and is
// never recomputed (unless a build of other numerics computed it: a Pool
// refuses to resume over such runs with a NumericsError, or recomputes them
// with RecomputeMismatched), so any number of interrupted invocations, a local Pool,
// GNU parallel over the emitted task file and a Slurm job array all fill the
// same directories with the same files. Collect turns a results directory into
// tidy CSV tables; StatusOf tells how far a plan's runs in one have come and
// the time left at the directory's own speeds.
package sweep
