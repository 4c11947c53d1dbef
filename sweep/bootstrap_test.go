package sweep

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bootStudy = `
name: boot
envs: [trace-patterning]
groups:
  - name: ccn
    config: {method: ccn}
  - name: tbptt
    config: {method: tbptt}
scales:
  s: {steps: 100, final-seeds: 5-7}
`

// bootResults is a comparison over environments a and b whose final runs
// have the errors and return variances of outcomes.
func bootResults(t *testing.T, outcomes map[string][3]Outcome) *Results {
	t.Helper()
	groups := twoEnvGroups(t, bootStudy)
	p := Plan{Study: "boot", Scale: "s", FinalSeeds: Seeds{5, 6, 7}, Groups: groups}
	r := &Results{outcomes: map[string]Outcome{}, Plans: []Plan{p}}
	for g, grp := range p.Groups {
		for i, task := range p.FinalTasks(g, 0) {
			r.outcomes[task.ID] = outcomes[grp.Name][i]
		}
	}
	return r
}

// exactQuantiles enumerates every resample of each sample (n^n equally
// likely draws each) and returns the 2.5% and 97.5% quantiles (the smallest
// values whose distribution function exceeds 2.5% and 97.5%) of stat over all
// pairs of resamples: the bootstrap
// distribution that Normalize samples BootstrapReplicates times, computed
// without random numbers.
func exactQuantiles(a, b []float64, stat func(ma, mb float64) float64) (lo, hi float64) {
	means := func(xs []float64) []float64 {
		out := []float64{0}
		for range xs {
			var next []float64
			for _, s := range out {
				for _, x := range xs {
					next = append(next, s+x)
				}
			}
			out = next
		}
		for i := range out {
			out[i] /= float64(len(xs))
		}
		return out
	}
	var vals []float64
	for _, ma := range means(a) {
		for _, mb := range means(b) {
			vals = append(vals, stat(ma, mb))
		}
	}
	sort.Float64s(vals)
	n := float64(len(vals))
	return vals[int(math.Floor(0.025*n))], vals[int(math.Floor(0.975*n))]
}

// TestNormalizeBootstrap checks the intervals of normalized.csv on a table
// small enough to compute by hand: on a, CCN's and T-BPTT's errors are the
// same on every seed (2 and 4), so every replicate is 2/4 and the interval
// has zero width; on b both have errors 1, 2, 5 on the three seeds, the
// ratio of two independent resample means ranges from 1/5 to 5 and its
// exact 2.5% and 97.5% quantiles (exactQuantiles: 1/3 and 3) are the
// interval. The average over the games is (0.5 + b's)/2 replicate by
// replicate, so its interval is (0.5 + [1/3, 3])/2. The relative errors
// (error over the return variance, 4 on a and 1 on b): 0.5 on a, zero
// width; on b the resample mean of {1, 2, 5}, interval [1, 5].
func TestNormalizeBootstrap(t *testing.T) {
	run := func(e, v float64) Outcome { return ran(e, v) }
	same := func(e, v float64) [3]Outcome { return [3]Outcome{run(e, v), run(e, v), run(e, v)} }
	spread := [3]Outcome{run(1, 1), run(2, 1), run(5, 1)}
	r := bootResults(t, map[string][3]Outcome{
		"ccn@a": same(2, 4), "tbptt@a": same(4, 4),
		"ccn@b": spread, "tbptt@b": spread,
	})
	lo, hi := exactQuantiles([]float64{1, 2, 5}, []float64{1, 2, 5}, func(a, b float64) float64 { return a / b })
	assert.InDelta(t, 1.0/3, lo, 1e-12, "the hand computation")
	assert.InDelta(t, 3, hi, 1e-12)
	rlo, rhi := exactQuantiles([]float64{1, 2, 5}, []float64{1}, func(a, _ float64) float64 { return a })
	assert.Equal(t, [2]float64{1, 5}, [2]float64{rlo, rhi})

	rows := map[string]Normalized{}
	for _, n := range r.Normalize() {
		rows[n.Env+" "+n.Family] = n
	}
	type want struct{ mean, low, high, rel, relLow, relHigh float64 }
	for key, w := range map[string]want{
		"a ccn":      {0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
		"a tbptt":    {1, 1, 1, 1, 1, 1},
		"b ccn":      {1, lo, hi, 8.0 / 3, rlo, rhi},
		"b tbptt":    {1, lo, hi, 8.0 / 3, rlo, rhi},
		"mean ccn":   {0.75, (0.5 + lo) / 2, (0.5 + hi) / 2, (0.5 + 8.0/3) / 2, (0.5 + rlo) / 2, (0.5 + rhi) / 2},
		"mean tbptt": {1, (1 + lo) / 2, (1 + hi) / 2, (1 + 8.0/3) / 2, (1 + rlo) / 2, (1 + rhi) / 2},
	} {
		n, ok := rows[key]
		require.True(t, ok, key)
		got := []float64{n.Mean, n.Low, n.High, n.Relative, n.RelativeLow, n.RelativeHigh}
		exp := []float64{w.mean, w.low, w.high, w.rel, w.relLow, w.relHigh}
		assert.InDeltaSlice(t, exp, got, 1e-12, key)
	}

	// Deterministic: the same table twice.
	again := bootResults(t, map[string][3]Outcome{
		"ccn@a": same(2, 4), "tbptt@a": same(4, 4), "ccn@b": spread, "tbptt@b": spread,
	}).Normalize()
	assert.Equal(t, fmtRows(r.Normalize()), fmtRows(again))

	// Teeth: resampling T-BPTT's seeds matters. With its errors on b all at
	// their mean (8/3), CCN's interval is that of its resample mean over
	// 8/3: [3/8, 15/8], narrower than [1/3, 3].
	r = bootResults(t, map[string][3]Outcome{
		"ccn@a": same(2, 4), "tbptt@a": same(4, 4), "ccn@b": spread, "tbptt@b": same(8.0/3, 1),
	})
	for _, n := range r.Normalize() {
		if n.Env == "b" && n.Family == "ccn" {
			assert.InDeltaSlice(t, []float64{3.0 / 8, 15.0 / 8}, []float64{n.Low, n.High}, 1e-12)
		}
	}
}

func fmtRows(rows []Normalized) []string {
	var out []string
	for _, n := range rows {
		out = append(out, strings.Join([]string{n.Env, n.Family, formatFloat(n.Low), formatFloat(n.High),
			formatFloat(n.RelativeLow), formatFloat(n.RelativeHigh)}, " "))
	}
	return slices.Clip(out)
}
