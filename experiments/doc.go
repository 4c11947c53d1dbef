// Package experiments runs the paper's online prediction experiments (paper §4):
// a run's configuration (RunConfig, the table of Settings and its codec),
// resolved once (Resolved) into the environment stream and a learner
// (Columnar, Constructive or CCN from package forward, a dense LSTM with
// T-BPTT from package backward, a dense LSTM with exact RTRL, SnAp-1 or UORO,
// an RTU layer, the linear control, or a registered method) with its
// optimizer, which package td's TD(λ) agent (paper Algorithm 1) trains online.
//
// Run executes one configured run and writes curve.csv (the mean squared
// error against the true return G_t over a sliding window), predictions.csv
// and summary.json atomically into a directory, reporting progress as it
// goes; its Options.Gate runs a check before anything is written
// (compare.RunGate, the gradient gate of ccn run). Probe runs the same
// learning loop without writing anything, handing the learner to a function
// every so many steps (ccn frozen-bias).
package experiments
