package minatar

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/env/atari"
)

// TestStreamStatistics: the games play like a trained agent on the first
// 300,000 steps of seed 100 (docs/atari.md has the table of 1M steps, from
// ccn envs --stats): no episode shorter than 31 steps (none ends in its
// no-op start), at most 5% shorter than 100, a median of at least 200 steps
// and a return whose standard deviation is at least 0.3.
func TestStreamStatistics(t *testing.T) {
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			s, err := Measure(g.Name, 100, 300_000, 100_000, Config{})
			require.NoError(t, err)
			t.Logf("%+v", s)
			assert.GreaterOrEqual(t, s.Shortest, 31)
			assert.LessOrEqual(t, s.Short, 0.05)
			assert.GreaterOrEqual(t, s.Median, 200)
			assert.GreaterOrEqual(t, s.ReturnStd, 0.3)
			assert.Greater(t, s.Episodes, 10)
		})
	}
}

// TestMeasureIsTheStream: Measure's episodes and returns are the stream's.
func TestMeasureIsTheStream(t *testing.T) {
	const steps, window = 20_000, 5_000
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			s, err := New(g.Name, 9, Config{})
			require.NoError(t, err)
			x := make([]float64, atari.Inputs)
			var lengths []int
			var rets []float64
			var rewards float64
			n := 0
			for range steps {
				c, ret := s.Next(x)
				rets = append(rets, ret)
				rewards += c
				n++
				if s.Done() {
					lengths = append(lengths, n)
					n = 0
				}
			}
			m, err := Measure(g.Name, 9, steps, window, Config{})
			require.NoError(t, err)
			assert.Equal(t, len(lengths), m.Episodes)
			if len(lengths) > 0 {
				assert.Equal(t, minOf(lengths), m.Shortest)
			}
			assert.InDelta(t, rewards/steps, m.RewardPerStep, 1e-12)
			mean, sd := meanStd(rets)
			assert.InDelta(t, mean, m.ReturnMean, 1e-12)
			assert.InDelta(t, sd, m.ReturnStd, 1e-12)
			_, wsd := meanStd(rets[steps-window:])
			assert.InDelta(t, wsd*wsd, m.WindowVariance, 1e-12)
		})
	}
}

func minOf(v []int) int {
	m := math.MaxInt
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

// TestMeasurePercentiles: nearest-rank percentiles of the episode lengths.
func TestMeasurePercentiles(t *testing.T) {
	s, err := Measure("freeway", 1, 3*2501, 100, Config{})
	require.NoError(t, err)
	assert.Equal(t, Stats{Game: "freeway", Seed: 1, Steps: 3 * 2501, Window: 100, Episodes: 3, Shortest: 2501,
		P10: 2501, Median: 2501, P90: 2501, RewardPerStep: s.RewardPerStep, ReturnMean: s.ReturnMean,
		ReturnStd: s.ReturnStd, WindowVariance: s.WindowVariance}, s)
	assert.Panics(t, func() { Measure("freeway", 1, 10, 11, Config{}) })
	_, err = Measure("pong", 1, 10, 10, Config{})
	assert.Error(t, err)
}
