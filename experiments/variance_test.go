package experiments

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunReturnVariance: summary.json's return_variance is the variance of
// the returns of the stream's last Window steps, computed here from the
// stream itself.
func TestRunReturnVariance(t *testing.T) {
	for _, window := range []int{1000, 3000} {
		c := short.Config()
		c.Window = window
		cfg := c.MustResolve()
		s, err := Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run"), Options{})
		require.NoError(t, err)

		e := cfg.NewEnv()
		x := make([]float64, e.ObservationSize())
		g := make([]float64, c.Steps)
		for i := range g {
			_, g[i] = e.Next(x)
		}
		last := g[len(g)-window:]
		mean := 0.0
		for _, v := range last {
			mean += v
		}
		mean /= float64(window)
		want := 0.0
		for _, v := range last {
			want += (v - mean) * (v - mean)
		}
		want /= float64(window)
		require.Positive(t, want)
		assert.InEpsilon(t, want, s.ReturnVariance, 1e-12, "window %d", window)
		assert.Nil(t, s.Stream, "no recorded stream")
	}
}

func TestReturnWindowBeforeFull(t *testing.T) {
	r := newReturnWindow(4)
	assert.Zero(t, r.variance())
	r.add(1)
	r.add(3)
	assert.Equal(t, 1.0, r.variance()) // mean 2, deviations ±1
	for _, g := range []float64{5, 5, 5, 5} {
		r.add(g)
	}
	assert.Zero(t, r.variance(), "only the last 4 count")
}
