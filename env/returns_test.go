package env

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEpisodeReturns checks the backward recursion against the sum written
// out, G_t = Σ_{j=t+1..T} γ^(j−t−1)·c_j, over hand-built segments.
func TestEpisodeReturns(t *testing.T) {
	const gamma = 0.5
	for _, tc := range []struct {
		name string
		c    []float64
		done []bool
		want []float64
	}{
		{"one step", []float64{7}, []bool{true}, []float64{0}},
		{"one episode", []float64{9, 1, 0, 1}, []bool{false, false, false, true},
			// G_0 = 1 + 0.5·0 + 0.25·1; G_1 = 0 + 0.5·1; G_2 = 1; G_3 = 0.
			[]float64{1.25, 0.5, 1, 0}},
		{"two episodes, no crossing", []float64{0, 1, 1, 1, 1}, []bool{false, true, false, false, true},
			// The cumulant 1 of step 2 (first of episode 2) does not reach step 1.
			[]float64{1, 0, 1.5, 1, 0}},
		{"back-to-back ends", []float64{3, -1, 2}, []bool{true, true, true}, []float64{0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := make([]float64, len(tc.c))
			EpisodeReturns(got, tc.c, tc.done, gamma)
			assert.Equal(t, tc.want, got)

			// The same by the written-out sum.
			for i := range tc.c {
				s := 0.0
				if !tc.done[i] {
					for j := i + 1; j < len(tc.c); j++ {
						s += math.Pow(gamma, float64(j-i-1)) * tc.c[j]
						if tc.done[j] {
							break
						}
					}
				}
				assert.InDelta(t, s, got[i], 1e-15, "step %d", i)
			}
		})
	}
}

func TestEpisodeReturnsPanics(t *testing.T) {
	d := make([]float64, 2)
	assert.PanicsWithValue(t, "env: EpisodeReturns needs a segment that ends an episode", func() {
		EpisodeReturns(d, []float64{1, 1}, []bool{true, false}, 0.9)
	})
	assert.Panics(t, func() { EpisodeReturns(d, []float64{1}, []bool{true, true}, 0.9) })
	assert.Panics(t, func() { EpisodeReturns(nil, nil, nil, 0.9) })
}

func TestDoneOfContinuingStream(t *testing.T) {
	e := NewTracePatterning(TraceConfig{}, 1)
	x := make([]float64, e.ObservationSize())
	e.Next(x)
	require.False(t, Done(e))
	_, ok := Env(e).(Episodic)
	assert.False(t, ok, "trace patterning never ends")
}
