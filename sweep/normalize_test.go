package sweep

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

const normStudy = `
name: norm
envs: [trace-patterning]
groups:
  - name: ccn
    config: {method: ccn}
  - name: columnar
    config: {method: columnar}
  - name: tbptt
    config: {method: tbptt}
    each: [{name: "5:7", truncation: 5, hidden: 7}, {name: "8:5", truncation: 8, hidden: 5}]
scales:
  s: {steps: 100, final-seeds: 5-6}
`

// twoEnvGroups plans study at scale s on two environments a and b (trace
// patterning with λ 0.9 and 0.5, so that their runs differ), its groups named
// GROUP@a and GROUP@b as a study with envs names them.
func twoEnvGroups(t *testing.T, study string) []Group {
	t.Helper()
	var groups []Group
	for _, env := range []struct{ label, lambda string }{{"a", "0.9"}, {"b", "0.5"}} {
		s, err := Parse([]byte(strings.Replace(study, "\n", "\nbase: {lambda: "+env.lambda+"}\n", 1)))
		require.NoError(t, err)
		p, err := s.Plan("s")
		require.NoError(t, err)
		for _, g := range p.Groups {
			g.Env, g.Name = env.label, g.Family+"@"+env.label
			groups = append(groups, g)
		}
	}
	return groups
}

// normResults is a plan over two environments a and b (trace patterning with
// two λ, so that their runs differ) with the final errors of the hand-computed
// table of TestNormalize.
func normResults(t *testing.T) *Results {
	groups := twoEnvGroups(t, normStudy)
	p := Plan{Study: "norm", Scale: "s", FinalSeeds: Seeds{5, 6}, Groups: groups}
	r := &Results{outcomes: map[string]Outcome{}, Plans: []Plan{p}}
	done := func(e float64) Outcome {
		return Outcome{State: Done, Summary: experiments.Summary{FinalError: e}}
	}
	outcomes := map[string][2]Outcome{
		"ccn@a":       {done(1.5), done(3)},
		"columnar@a":  {{State: Diverged}, done(6)},
		"tbptt/5:7@a": {done(2), done(4)},
		"tbptt/8:5@a": {done(5), done(7)},
		"ccn@b":       {done(1), done(3)},
		"columnar@b":  {{State: Pending}, {State: Pending}},
		"tbptt/5:7@b": {{State: Failed}, done(1)},
		"tbptt/8:5@b": {done(2), done(2)},
	}
	for g, grp := range p.Groups {
		o, ok := outcomes[grp.Name]
		require.True(t, ok, grp.Name)
		for i, task := range p.FinalTasks(g, 0) {
			r.outcomes[task.ID] = o[i]
		}
	}
	return r
}

// TestNormalize checks Normalize against a table computed by hand. On a the
// reference is tbptt/5:7 (mean 3 < 6); on b it is tbptt/8:5 (mean 2): 5:7's
// failed run ranks it last although its one complete error is 1.
func TestNormalize(t *testing.T) {
	nan := math.NaN()
	type row struct {
		env, group, ref string
		games           int
		missing         []string
		complete, div   int
		failed, pending int
		mean, se        float64
	}
	want := []row{
		{"a", "ccn", "norm/tbptt/5:7@a", 1, nil, 2, 0, 0, 0, 0.75, 0.25},                 // 1.5/3, 3/3
		{"a", "columnar", "norm/tbptt/5:7@a", 1, nil, 1, 1, 0, 0, 2, 0},                  // 6/3
		{"a", "tbptt/5:7", "norm/tbptt/5:7@a", 1, nil, 2, 0, 0, 0, 1, 1.0 / 3},           // 2/3, 4/3
		{"a", "tbptt/8:5", "norm/tbptt/5:7@a", 1, nil, 2, 0, 0, 0, 2, 1.0 / 3},           // 5/3, 7/3
		{"b", "ccn", "norm/tbptt/8:5@b", 1, nil, 2, 0, 0, 0, 1, 0.5},                     // 1/2, 3/2
		{"b", "columnar", "norm/tbptt/8:5@b", 0, nil, 0, 0, 0, 2, nan, nan},              // nothing yet
		{"b", "tbptt/5:7", "norm/tbptt/8:5@b", 1, nil, 1, 0, 1, 0, 0.5, 0},               // 1/2
		{"b", "tbptt/8:5", "norm/tbptt/8:5@b", 1, nil, 2, 0, 0, 0, 1, 0},                 // 2/2, 2/2
		{"mean", "ccn", "", 2, nil, 4, 0, 0, 0, 0.875, math.Sqrt(0.25*0.25+0.5*0.5) / 2}, // (0.75+1)/2
		{"mean", "columnar", "", 1, []string{"b"}, 1, 1, 0, 2, 2, 0},
		{"mean", "tbptt/5:7", "", 2, nil, 3, 0, 1, 0, 0.75, 1.0 / 6},
		{"mean", "tbptt/8:5", "", 2, nil, 4, 0, 0, 0, 1.5, 1.0 / 6},
	}
	got := normResults(t).Normalize()
	require.Len(t, got, len(want))
	for i, w := range want {
		g := got[i]
		where := w.env + " " + w.group
		assert.Equal(t, []any{w.env, w.group, w.ref, w.games, w.missing, 2 * (1 + boolInt(w.env == MeanEnv)), w.complete, w.div, w.failed, w.pending},
			[]any{g.Env, g.Family, g.Reference, g.Games, g.Missing, g.Seeds, g.Complete, g.Diverged, g.Failed, g.Pending}, where)
		if math.IsNaN(w.mean) {
			assert.True(t, math.IsNaN(g.Mean) && math.IsNaN(g.SE), where)
			continue
		}
		assert.InDelta(t, w.mean, g.Mean, 1e-12, where)
		assert.InDelta(t, w.se, g.SE, 1e-12, where)
	}
	var b bytes.Buffer
	require.NoError(t, normResults(t).WriteNormalized(&b))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 1+len(want))
	// ccn on a: a resample mean of {1.5, 3} over one of 5:7's {2, 4}; the
	// lowest ratio 1.5/4 and the highest 3/2 each have probability 1/16 >
	// 2.5%, so the interval is [0.375, 1.5]. No run has a return variance.
	assert.Equal(t, "norm,s,a,ccn,norm/tbptt/5:7@a,1,,2,2,0,0,0,0.75,0.25,0.375,1.5,NaN,NaN,NaN,NaN", lines[1])
	// columnar on a has one complete run: a value, no interval
	// (stats.Resamplable), and so none on its average row; nor has 5:7's
	// average, whose b has one run.
	assert.Equal(t, "norm,s,a,columnar,norm/tbptt/5:7@a,1,,2,1,1,0,0,2,0,NaN,NaN,NaN,NaN,NaN,NaN", lines[2])
	assert.Equal(t, "norm,s,mean,columnar,,1,b,4,1,1,0,2,2,0,NaN,NaN,NaN,NaN,NaN,NaN", lines[10])
	assert.Equal(t, "norm,s,mean,tbptt/5:7,,2,,4,3,0,1,0,0.75,0.16666666666666666,NaN,NaN,NaN,NaN,NaN,NaN", lines[11])
	assert.Equal(t, "norm,s,b,columnar,norm/tbptt/8:5@b,0,,2,0,0,0,2,NaN,NaN,NaN,NaN,NaN,NaN,NaN,NaN", lines[6])
}

// A study of T-BPTT alone (the capacity study) is normalized but is no
// reference, however low its errors: on a the reference stays the
// comparison's tbptt/5:7 (mean 3), so cap's error 0.3 reads 0.1; a study of
// T-BPTT alone without a comparison has no reference at all.
func TestNormalizeReferenceFromComparison(t *testing.T) {
	r := normResults(t)
	s, err := Parse([]byte(`
name: cap
envs: [trace-patterning]
groups:
  - name: capacity
    config: {method: tbptt}
    each: [{name: "H=15", truncation: 8, hidden: 15}]
scales:
  s: {steps: 100, final-seeds: 5-6}
`))
	require.NoError(t, err)
	p, err := s.Plan("s")
	require.NoError(t, err)
	p.Groups[0].Env, p.Groups[0].Name = "a", p.Groups[0].Family+"@a"
	for _, task := range p.FinalTasks(0, 0) {
		r.outcomes[task.ID] = Outcome{State: Done, Summary: experiments.Summary{FinalError: 0.3}}
	}
	r.Plans = append(r.Plans, p)
	got := r.Normalize()
	for _, n := range got {
		if n.Env == "a" {
			assert.Equal(t, "norm/tbptt/5:7@a", n.Reference, n.Study+" "+n.Family)
		}
	}
	last := got[len(got)-2]
	assert.Equal(t, []any{"cap", "a", "capacity/H=15"}, []any{last.Study, last.Env, last.Family})
	assert.InDelta(t, 0.1, last.Mean, 1e-12)

	r.Plans = r.Plans[1:] // the capacity study alone
	for _, n := range r.Normalize() {
		assert.Empty(t, n.Reference, n.Family)
		assert.True(t, math.IsNaN(n.Mean), n.Family)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// An environment without any complete T-BPTT run has no reference: every
// group there has no value and the averages list it as missing.
func TestNormalizeWithoutReference(t *testing.T) {
	r := normResults(t)
	for g, grp := range r.Plans[0].Groups {
		if grp.Env == "b" && strings.HasPrefix(grp.Family, "tbptt") {
			for _, task := range r.Plans[0].FinalTasks(g, 0) {
				r.outcomes[task.ID] = Outcome{State: Diverged}
			}
		}
	}
	for _, n := range r.Normalize() {
		switch n.Env {
		case "b":
			assert.Empty(t, n.Reference, n.Family)
			assert.True(t, math.IsNaN(n.Mean), n.Family)
		case MeanEnv:
			assert.Equal(t, []string{"b"}, n.Missing, n.Family)
			assert.Equal(t, 1, n.Games, n.Family)
		}
	}
}
