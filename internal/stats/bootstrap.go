package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapSeed seeds BootstrapCI, so that a table of intervals is the same
// at every run.
const BootstrapSeed = 20230101

// BootstrapCI returns the percentile bootstrap interval at level (0.95 for
// 95%) of the difference f(y) − f(x) of a statistic f (Median, or the mean),
// which does not assume normality: each of resamples times, x and y are
// resampled with replacement, independently, and the interval is the
// (1 − level)/2 and (1 + level)/2 quantiles of the resampled differences,
//
//	d_b = f(y*_b) − f(x*_b)      CI = [q_{(1−level)/2}(d), q_{(1+level)/2}(d)]
//
// drawn from a fixed seed (BootstrapSeed). A sample of fewer than
// MinResampled values gives NaN (Resamplable).
func BootstrapCI(x, y []float64, f func([]float64) float64, resamples int, level float64) (lo, hi float64) {
	if !Resamplable(x, y) || resamples < 1 {
		return math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(BootstrapSeed, 1))
	bx, by := make([]float64, len(x)), make([]float64, len(y))
	d := make([]float64, resamples)
	for b := range d {
		for i := range bx {
			bx[i] = x[rng.IntN(len(x))]
		}
		for i := range by {
			by[i] = y[rng.IntN(len(y))]
		}
		d[b] = f(by) - f(bx)
	}
	slices.Sort(d)
	q := func(p float64) float64 { return d[min(resamples-1, int(math.Floor(p*float64(resamples))))] }
	return q((1 - level) / 2), q((1 + level) / 2)
}

// Mean returns the mean of xs (NaN for none), for BootstrapCI.
func Mean(xs []float64) float64 {
	m, _ := MeanSE(xs)
	return m
}
