package sweep

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

const mergeStudy = `
name: m
base: {env: trace-patterning}
groups:
  - name: ccn
    config: {method: ccn, features: 4, features-per-stage: 2, steps-per-stage: 2500000}
    grid: {step-size: [1.0e-3, 1.0e-4]}
  - name: tbptt
    config: {method: tbptt}
    each:
      - {name: "2:3", truncation: 2, hidden: 3}
      - {name: "5:2", truncation: 5, hidden: 2}
    grid: {step-size: [1.0e-3, 1.0e-4]}
scales:
  s:
    steps: 1000000
    final-steps: 3000000
    sweep-seeds: 0-1
    final-seeds: 100-102
    set: {norm-decay: 0.999998, window: 100}
    select:
      tbptt/2:3: {step-size: 1.0e-4}
    merge:
      tbptt: [tbptt/5:2, tbptt/2:3]
`

// final-steps: the sweep runs are 1M steps with a stage every 250k, the final
// runs 3M steps with a stage every 750k; the stages are the same fractions
// of each run.
func TestScaleFinalSteps(t *testing.T) {
	s, err := Parse([]byte(mergeStudy))
	require.NoError(t, err)
	p, err := s.Plan("s")
	require.NoError(t, err)
	ccn := p.Groups[0]
	require.Equal(t, "ccn", ccn.Name)
	sw, fin := ccn.Candidates[0].Config.Config(), p.FinalConfig(0, 0).Config()
	assert.Equal(t, []int{1_000_000, 250_000}, []int{sw.Steps, sw.StepsPerStage})
	assert.Equal(t, []int{3_000_000, 750_000}, []int{fin.Steps, fin.StepsPerStage})
	sw.Steps, sw.StepsPerStage, fin.Steps, fin.StepsPerStage = 0, 0, 0, 0
	assert.Equal(t, sw, fin, "only the steps differ")
	for _, task := range p.SweepTasks(0) {
		assert.Equal(t, 1_000_000, task.Config.Config().Steps)
	}
	finals := p.FinalTasks(0, 1)
	require.Len(t, finals, 3)
	for i, task := range finals {
		c := task.Config.Config()
		assert.Equal(t, []uint64{p.FinalSeeds[i], 3_000_000}, []uint64{c.Seed, uint64(c.Steps)})
		assert.Equal(t, ID(task.Config), task.ID)
		assert.NotEqual(t, p.Task(0, 1, p.FinalSeeds[i]).ID, task.ID)
	}

	// Without final-steps the final runs are the sweep's configuration.
	s, err = Parse([]byte(strings.Replace(mergeStudy, "    final-steps: 3000000\n", "", 1)))
	require.NoError(t, err)
	p, err = s.Plan("s")
	require.NoError(t, err)
	assert.Nil(t, p.Groups[0].Candidates[0].Final)
	assert.Equal(t, p.Task(0, 0, 100).ID, p.FinalTasks(0, 0)[0].ID)
}

// merge: T-BPTT 5:2 over two step sizes and 2:3 at one compete as one group
// of three candidates, labelled by every setting in which they differ, in
// the merge list's order; set's norm-decay reaches CCN only.
func TestScaleMergeAndSetByMethod(t *testing.T) {
	s, err := Parse([]byte(mergeStudy))
	require.NoError(t, err)
	p, err := s.Plan("s")
	require.NoError(t, err)
	require.Len(t, p.Groups, 2)
	g := p.Groups[1]
	assert.Equal(t, "tbptt", g.Name)
	assert.Equal(t, []string{"hidden", "step-size", "truncation"}, g.Tuned)
	var labels []string
	for _, c := range g.Candidates {
		labels = append(labels, c.Label)
		assert.Equal(t, 0.0, c.Config.Config().NormDecay, "norm-decay does not apply to T-BPTT")
	}
	assert.Equal(t, []string{"hidden=2 step-size=0.001 truncation=5", "hidden=2 step-size=0.0001 truncation=5",
		"hidden=3 step-size=0.0001 truncation=2"}, labels)
	assert.Len(t, p.SweepTasks(1), 6)
	assert.Equal(t, 0.999998, p.Groups[0].Candidates[0].Config.Config().NormDecay)

	for _, c := range []struct{ from, to, problem string }{
		{"merge:\n      tbptt: [tbptt/5:2, tbptt/2:3]", "merge:\n      tbptt: [tbptt/5:2, tbptt/9:9]", "merge tbptt names group tbptt/9:9"},
		{"merge:\n      tbptt: [tbptt/5:2, tbptt/2:3]", "merge:\n      tbptt: [tbptt/5:2]", "lists 1 groups"},
		{"merge:\n      tbptt: [tbptt/5:2, tbptt/2:3]", "merge:\n      tbptt: [tbptt/5:2, tbptt/2:3]\n      other: [tbptt/2:3, ccn]", "merged twice"},
		{"merge:\n      tbptt: [tbptt/5:2, tbptt/2:3]", "merge:\n      ccn: [tbptt/5:2, tbptt/2:3]", "merged group ccn has the name of another group"},
		{"set: {norm-decay", "only: [tbptt/5:2, tbptt/2:3]\n    set: {norm-decay", "set norm-decay applies to none of the groups"},
		{"final-steps: 3000000", "final-steps: -1", "final-steps must be at least 1"},
	} {
		s, err := Parse([]byte(strings.Replace(mergeStudy, c.from, c.to, 1)))
		if err == nil {
			_, err = s.Plan("s")
		}
		assert.ErrorIs(t, err, ErrInvalid, c.problem)
		if err != nil {
			assert.Contains(t, err.Error(), c.problem)
		}
	}
}

// An auto stage schedule stays auto at every scale; its explicit stage
// lengths scale like steps-per-stage.
func TestScaleAutoStages(t *testing.T) {
	r, err := toConfig(map[string]any{"method": "ccn", "steps-per-stage": "auto", "stage-min": 1_000_000, "stage-max": 4_000_000.0, "stage-window": 10_000}, 2_000_000)
	require.NoError(t, err)
	c := r.Config()
	assert.Equal(t, []int{experiments.AutoStepsPerStage, 200_000, 800_000, 2000}, []int{c.StepsPerStage, c.StageMin, c.StageMax, c.StageWindow})
	_, err = toConfig(map[string]any{"stage-min": "soon"}, 2_000_000)
	assert.ErrorContains(t, err, "stage-min soon is not a number")
}
