package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuantile(t *testing.T) {
	for _, c := range []struct {
		q    float64
		want float64
	}{
		{0, 1}, {0.025, 1}, {0.1999999, 1}, {0.2, 2}, {0.4, 3}, {0.5, 3}, {0.975, 5}, {1, 5},
	} {
		assert.Equal(t, c.want, Quantile([]float64{5, 1, 3, 2, 4}, c.q), "q = %v", c.q)
	}
	assert.True(t, math.IsNaN(Quantile(nil, 0.5)))
	assert.True(t, math.IsNaN(Quantile([]float64{1, math.NaN()}, 0.5)))
	lo, hi := Interval95([]float64{7, 7, 7})
	assert.Equal(t, [2]float64{7, 7}, [2]float64{lo, hi})
}

// ResampleMean draws with replacement: over many resamples of {1, 2, 6}
// each of the 27 equally likely draws appears, so the resample mean takes
// its values with the probabilities counted by enumerating them (a draw
// without replacement would always give 3).
func TestResampleMean(t *testing.T) {
	xs := []float64{1, 2, 6}
	exact := map[float64]float64{}
	for _, a := range xs {
		for _, b := range xs {
			for _, c := range xs {
				exact[(a+b+c)/3] += 1.0 / 27
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 100_000
	got := map[float64]float64{}
	for range n {
		got[ResampleMean(rng, xs)] += 1.0 / n
	}
	assert.Len(t, got, len(exact))
	for v, p := range exact {
		assert.InDelta(t, p, got[v], 5*math.Sqrt(p*(1-p)/n), "mean %v", v)
	}
	assert.True(t, math.IsNaN(ResampleMean(rng, nil)))
}
