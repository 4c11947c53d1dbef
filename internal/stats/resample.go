package stats

import (
	"math"
	"math/rand/v2"
	"sort"
)

// MinResampled is the fewest values a sample needs for a bootstrap interval
// (see the package documentation).
const MinResampled = 2

// Resamplable reports whether every one of samples holds at least
// MinResampled values, so that a bootstrap interval that resamples them says
// something about their spread.
func Resamplable(samples ...[]float64) bool {
	for _, s := range samples {
		if len(s) < MinResampled {
			return false
		}
	}
	return true
}

// ResampleMean returns the mean of one bootstrap resample of xs: len(xs)
// values drawn from xs uniformly with replacement by rng. It returns NaN for
// an empty xs.
func ResampleMean(rng *rand.Rand, xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum float64
	for range xs {
		sum += xs[rng.IntN(len(xs))]
	}
	return sum / float64(len(xs))
}

// Quantile returns the q-quantile of the values of xs, which it sorts in
// place, by the rule of BootstrapCI: the value at 0-based index ⌊q·n⌋ of the
// sorted values (the last for q = 1), the smallest value whose empirical
// distribution function exceeds q. It returns NaN for an empty xs or if a
// value is NaN.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	for _, x := range xs {
		if math.IsNaN(x) {
			return math.NaN()
		}
	}
	sort.Float64s(xs)
	return xs[min(len(xs)-1, int(math.Floor(q*float64(len(xs)))))]
}

// Interval95 returns the central 95% percentile interval of the bootstrap
// replicates reps (sorted in place): their 0.025- and 0.975-quantiles
// (Quantile).
func Interval95(reps []float64) (lo, hi float64) {
	return Quantile(reps, 0.025), Quantile(reps, 0.975)
}
