package sweep

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/experiments"
)

// TestDependencyLengthStudy checks the design of the dependency-length study
// (docs/truncation-study.md): its ISI ranges, the ITI scaled with the ISI by
// the paper's 10/3, its groups and their compute-matched sizes, its protocol
// (sweep seeds 0-2, ten final seeds at 10M steps), and that its ISI 24-36 runs
// are the paper-scale runs of the studies it compares with (same IDs), RTU's
// those of rtu-comparison.
func TestDependencyLengthStudy(t *testing.T) {
	s, err := Load("../experiments/configs/dependency-length.yaml")
	require.NoError(t, err)
	paper := s.Scales["paper"]
	assert.Equal(t, experiments.PaperSteps, paper.Steps)
	assert.Equal(t, Seeds{0, 1, 2}, paper.SweepSeeds)
	assert.GreaterOrEqual(t, len(paper.FinalSeeds), 10)

	p, err := s.Plan("paper")
	require.NoError(t, err)
	type shape struct{ truncation, hidden, features int }
	isis := map[string][][2]int{} // group prefix → ISI ranges
	shapes := map[string]shape{}
	def := env.DefaultTraceConfig()
	for _, g := range p.Groups {
		c := g.Candidates[0].Config.Config()
		tc := g.Candidates[0].Config.Trace()
		prefix := g.Name[:len(g.Name)-len("/isi=")-len(isiText(tc))]
		require.Equal(t, prefix+"/isi="+isiText(tc), g.Name, "the group's name states its ISI")
		isis[prefix] = append(isis[prefix], [2]int{tc.ISIMin, tc.ISIMax})
		shapes[prefix] = shape{c.Truncation, c.Hidden, c.Features}
		// The ITI is the ISI scaled by the paper's ITI/ISI = 10/3.
		assert.Equal(t, roundDiv(10*tc.ISIMin, 3), tc.ITIMin, g.Name)
		assert.Equal(t, roundDiv(10*tc.ISIMax, 3), tc.ITIMax, g.Name)
		assert.GreaterOrEqual(t, tc.ITIMin, tc.ISIMax, g.Name)
		assert.Equal(t, def.Distractors, tc.Distractors, g.Name)
		if tc.ISIMin == def.ISIMin {
			// The paper's ISI is written as the defaults: these runs are the
			// other studies' runs.
			assert.Zero(t, c.ISIMin+c.ISIMax+c.ITIMin+c.ITIMax+c.Distractors, g.Name)
		}
		want := 6
		if c.Method.Normalized() {
			want = 12 // × ε
		}
		assert.Len(t, g.Candidates, want, g.Name)
	}
	all := [][2]int{{8, 12}, {24, 36}, {48, 72}, {96, 144}}
	assert.Equal(t, map[string][][2]int{
		"ccn": all, "columnar": all, "rtu": all, "tbptt-3:10": all, "tbptt-15:4": all,
		"tbptt-30:2": all[1:], "tbptt-h10-k15": all,
	}, isis)
	assert.Equal(t, map[string]shape{
		"ccn": {0, 0, 16}, "columnar": {0, 0, 10}, "rtu": {0, 21, 0}, "tbptt-3:10": {3, 10, 0}, "tbptt-15:4": {15, 4, 0},
		"tbptt-30:2": {30, 2, 0}, "tbptt-h10-k15": {15, 10, 0},
	}, shapes)

	// Its ISI 24-36 runs are the other studies' paper-scale runs.
	others := map[string]bool{}
	for _, f := range []string{"main-comparison", "compute-matched-tbptt", "truncation-h10", "rtu-comparison"} {
		o, err := Load("../experiments/configs/" + f + ".yaml")
		require.NoError(t, err)
		op, err := o.Plan("paper")
		require.NoError(t, err)
		for _, t := range allTasks(&op) {
			others[t.ID] = true
		}
	}
	shared := 0
	for _, task := range allTasks(&p) {
		if task.Config.Trace().ISIMin == def.ISIMin {
			assert.True(t, others[task.ID], "%s is a run of the paper's studies", task.ID)
			shared++
		}
	}
	assert.Positive(t, shared)
}

func isiText(tc env.TraceConfig) string { return itoa(tc.ISIMin) + "-" + itoa(tc.ISIMax) }

func roundDiv(a, b int) int { return (2*a + b) / (2 * b) }

// TestCommittedRunIdentities checks that the trace patterning settings, at
// their defaults, leave the identity of committed runs unchanged: a committed
// summary.json resolves to the ID that names its directory, and setting a
// trace setting to a value other than the paper's names another run.
func TestCommittedRunIdentities(t *testing.T) {
	const dir = "../results/paper/runs/ccn-0019d605f812acb4"
	b, err := os.ReadFile(dir + "/" + experiments.SummaryFile)
	require.NoError(t, err)
	c, _, err := experiments.DecodeFile(b, true)
	require.NoError(t, err)
	r, err := c.Resolve()
	require.NoError(t, err)
	assert.Equal(t, "ccn-0019d605f812acb4", ID(r))
	for _, set := range []func(*experiments.RunConfig){
		func(c *experiments.RunConfig) { c.ISIMin = 8 },
		func(c *experiments.RunConfig) { c.ISIMax = 40 },
		func(c *experiments.RunConfig) { c.ITIMin = 90 },
		func(c *experiments.RunConfig) { c.ITIMax = 130 },
		func(c *experiments.RunConfig) { c.Distractors = 2 },
	} {
		o := r.Config()
		set(&o)
		assert.NotEqual(t, ID(r), ID(o.MustResolve()))
	}
}

// allTasks returns every run p can plan: the sweep runs and the final runs of
// every candidate.
func allTasks(p *Plan) []Task {
	var ts []Task
	for g := range p.Groups {
		ts = append(ts, p.SweepTasks(g)...)
		for c := range p.Groups[g].Candidates {
			ts = append(ts, p.FinalTasks(g, c)...)
		}
	}
	return ts
}
