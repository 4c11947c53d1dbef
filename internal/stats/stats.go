// Package stats holds the project's summaries of repeated measurements (the
// median, and the comparisons of two samples that do not assume normality:
// MannWhitney and BootstrapCI) and its one rule for the mean and its
// standard error, computed with gonum/stat,
//
//	x̄ = Σx/n      s.e. = s/√n      s² = Σ(x − x̄)²/(n − 1)
//
// with one rule for the edge cases, used by every table and figure (sweep
// selection and collection, the report's curves, the truncation study):
//
//   - n = 0: mean and s.e. are NaN (there is nothing to summarize);
//   - n = 1: the mean is the value and the s.e. is 0, not NaN, so a figure
//     of one seed draws its curve without a band. Every output that shows a
//     s.e. also shows n (seeds, complete runs, samples), which tells a reader
//     that this 0 means "one value", not "no spread".
//
// A bootstrap interval needs at least MinResampled values in every sample it
// resamples (Resamplable): one value resamples only to itself, and the
// interval of width zero it would give claims a certainty that one run
// cannot. With fewer, BootstrapCI and the callers of Interval95 give NaN, no
// interval.
//
// BootstrapCI gives the interval of a difference of two samples' statistic;
// a statistic of other shapes (a ratio of two methods' mean errors, its
// average over games) is bootstrapped from its parts: ResampleMean draws one
// resample's mean, Interval95 takes the 2.5% and 97.5% quantiles of the
// replicates by BootstrapCI's rule (Quantile).
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// MeanSE returns the mean of xs and its standard error, with the edge cases
// of the package documentation.
func MeanSE(xs []float64) (mean, se float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	return mean, stat.StdErr(sd, float64(len(xs)))
}
