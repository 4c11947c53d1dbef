package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// autoSpecs are the auto-staged checks of the tests: Constructive and CCN
// (the last stage cut short) under the normalizations of the suite.
var autoSpecs = []struct {
	name string
	spec AutoStagedSpec
}{
	{"constructive/off", AutoStagedSpec{Inputs: 4, FeaturesPerStage: 1, MaxFeatures: 4,
		Freeze: forward.AutoFreeze{Min: 8, Max: 40, Window: 4, Decay: 0.5}, Rate: 0.5}},
	{"ccn/fast", AutoStagedSpec{Inputs: 4, FeaturesPerStage: 2, MaxFeatures: 5, Norm: FastNorm,
		Freeze: forward.AutoFreeze{Min: 8, Max: 40, Window: 4, Decay: 0.5}, Rate: 0.5}},
	{"ccn/floor", AutoStagedSpec{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 6, Norm: networkNorms[2].norm,
		Freeze: forward.AutoFreeze{Min: 10, Max: 30, Window: 5, Threshold: 0.2}, Rate: 0.3}},
}

// TestCheckAutoStaged: the engine agrees with the reference that freezes at
// the steps it picked, and some of those are picked by the test (strictly
// between Min and Max), at different steps on different trajectories.
func TestCheckAutoStaged(t *testing.T) {
	r := reference.New()
	picked := map[int]bool{}
	for _, tt := range autoSpecs {
		for i := range 3 {
			t.Run(tt.name, func(t *testing.T) {
				rng := newRand(11, i)
				res, err := CheckAutoStaged(r, tt.spec, randomTrajectory(rng, i, 100, tt.spec.Inputs), rng, forward.NoDefect)
				require.NoError(t, err)
				assert.True(t, res.Worst().Pass(), "%+v", res)
				require.NotEmpty(t, res.Ends)
				assert.Len(t, res.Stages, len(res.Ends)+1, "every stage's first window compared")
				prev := 0
				for _, e := range res.Ends {
					if n := e - prev; n > tt.spec.Freeze.Min && n < tt.spec.Freeze.Max {
						picked[n] = true
					}
					prev = e
				}
				t.Logf("scale %g: stages froze at %v, worst %.3g", []float64{0.1, 0.5, 1.5}[i%3], res.Ends, res.Worst().MaxRel)
			})
		}
	}
	assert.GreaterOrEqual(t, len(picked), 2, "the test picks stage lengths that depend on the data: %v", picked)
}

// TestCheckAutoStagedTeeth: the check fails when the engine carries a stage
// change wrongly (the fixed schedule's injections) and when the reference
// freezes one step after the engine's pick.
func TestCheckAutoStagedTeeth(t *testing.T) {
	r := reference.New()
	spec := autoSpecs[1].spec
	for _, tt := range []struct {
		name   string
		defect forward.Defect
		lag    int
	}{
		{"restart-stats-at-stage", forward.RestartStatsAtStage, 0},
		{"restart-state-at-stage", forward.RestartStateAtStage, 0},
		{"previous-step-features", forward.PreviousStepFeatures, 0},
		{"reference freezes one step late", forward.NoDefect, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := newRand(12, 1)
			res, err := checkAutoStaged(r, spec, randomTrajectory(rng, 1, 100, spec.Inputs), rng, tt.defect, tt.lag)
			require.NoError(t, err)
			require.NotEmpty(t, res.Ends)
			assert.False(t, res.Worst().Pass(), "%+v", res)
		})
	}
}

// The auto rows of ccn verify: Constructive and CCN under every
// normalization, each passing at the suite's default length.
func TestAutoRows(t *testing.T) {
	r := reference.New()
	seen := map[string]bool{}
	for i, c := range Cases(SuiteConfig{Networks: true}) {
		if c.Auto == nil {
			continue
		}
		assert.Equal(t, "auto", c.StageName())
		seen[c.Cell+" "+c.Norm] = true
		res := runCase(r, c, SuiteConfig{Seed: 1}, i)
		assert.True(t, res.Pass(), "%s %s: max rel %.3g, err %v", c.Cell, c.Norm, res.MaxRel, res.Err)
	}
	for _, cell := range []string{"constructive", "ccn"} {
		for _, n := range networkNorms {
			assert.True(t, seen[cell+" "+n.name], "%s %s", cell, n.name)
		}
	}
}
