package sweep

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

const acrossStudy = `
name: across
envs: [trace-patterning]
groups:
  - name: ccn
    config: {method: ccn}
    grid: {step-size: [1.0e-3, 1.0e-4]}
scales:
  s: {steps: 100, sweep-seeds: 0-1, final-seeds: 5-6}
`

// acrossResults is a plan selecting across two environments a and b (trace
// patterning with two λ, so that their runs differ) whose sweep runs have the
// final errors and return variances of outcomes, by group and candidate.
func acrossResults(t *testing.T, outcomes map[string][2][2]Outcome) *Results {
	t.Helper()
	groups := twoEnvGroups(t, acrossStudy)
	p := Plan{Study: "across", Scale: "s", SweepSeeds: Seeds{0, 1}, FinalSeeds: Seeds{5, 6}, Selection: AcrossEnvs, Groups: groups}
	r := &Results{outcomes: map[string]Outcome{}, Plans: []Plan{p}}
	for g, grp := range p.Groups {
		for c := range grp.Candidates {
			for i, task := range p.SweepTasks(g)[2*c : 2*c+2] {
				r.outcomes[task.ID] = outcomes[grp.Name][c][i]
			}
		}
	}
	return r
}

func ran(e, v float64) Outcome {
	return Outcome{State: Done, Summary: experiments.Summary{FinalError: e, ReturnVariance: v}}
}

// The hand-computed table of TestSelectAcrossEnvs: on a (return variance
// 1) candidate 0 (α = 1e-3) has relative errors 0.2, 0.4 (mean 0.3, s.e.
// 0.1) and candidate 1 0.8, 0.8; on b (variance 100) candidate 0 has 0.55,
// 0.55 and candidate 1 0.4, 0.6 (mean 0.5, s.e. 0.1). Per environment a
// takes candidate 0 and b candidate 1; across them candidate 0 scores
// (0.3+0.55)/2 = 0.425 (s.e. √(0.1²+0²)/2 = 0.05) and candidate 1
// (0.8+0.5)/2 = 0.65 (s.e. 0.05), so candidate 0 is selected on both,
// although its mean raw error (0.3+55)/2 = 27.65 is above candidate 1's
// (0.8+50)/2 = 25.4: b's larger returns do not dominate.
var acrossTable = map[string][2][2]Outcome{
	"ccn@a": {{ran(0.2, 1), ran(0.4, 1)}, {ran(0.8, 1), ran(0.8, 1)}},
	"ccn@b": {{ran(55, 100), ran(55, 100)}, {ran(40, 100), ran(60, 100)}},
}

func TestSelectAcrossEnvs(t *testing.T) {
	r := acrossResults(t, acrossTable)
	p := &r.Plans[0]
	scores, settled := p.RankAcrossEnvs("ccn", r.look)
	require.True(t, settled)
	require.Len(t, scores, 2)
	assert.Equal(t, []int{0, 1}, []int{scores[0].Candidate, scores[1].Candidate})
	assert.InDelta(t, 0.425, scores[0].Mean, 1e-12)
	assert.InDelta(t, 0.05, scores[0].SE, 1e-12)
	assert.InDelta(t, 0.65, scores[1].Mean, 1e-12)
	assert.InDelta(t, 0.05, scores[1].SE, 1e-12)
	assert.Equal(t, []int{4, 4, 0}, []int{scores[0].Seeds, scores[0].Complete, scores[0].Pending})
	for g := range p.Groups {
		c, ok := p.Best(g, r.look)
		assert.True(t, ok)
		assert.Equal(t, 0, c, p.Groups[g].Name)
	}
	// Per group (the sensitivity), b would take candidate 1.
	rank, _ := p.Rank(1, r.look)
	assert.Equal(t, 1, rank[0].Candidate)
	p.Selection = ""
	c, _ := p.Best(1, r.look)
	assert.Equal(t, 1, c, "teeth: per group, b selects its own best")
	p.Selection = AcrossEnvs

	var b bytes.Buffer
	require.NoError(t, r.WriteAcrossEnvs(&b))
	rows, err := csv.NewReader(&b).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, "study,scale,group,candidate,env,rank,seeds,complete,diverged,failed,pending,mean_relative_error,se_relative_error",
		strings.Join(rows[0], ","))
	want := []struct {
		fields   string
		mean, se float64
	}{
		{"across,s,ccn,step-size=0.001,a,1,2,2,0,0,0", 0.3, 0.1},
		{"across,s,ccn,step-size=0.001,b,2,2,2,0,0,0", 0.55, 0},
		{"across,s,ccn,step-size=0.001,mean,1,4,4,0,0,0", 0.425, 0.05},
		{"across,s,ccn,step-size=0.0001,a,2,2,2,0,0,0", 0.8, 0},
		{"across,s,ccn,step-size=0.0001,b,1,2,2,0,0,0", 0.5, 0.1},
		{"across,s,ccn,step-size=0.0001,mean,2,4,4,0,0,0", 0.65, 0.05},
	}
	require.Len(t, rows, 1+len(want))
	for i, w := range want {
		row := rows[i+1]
		assert.Equal(t, w.fields, strings.Join(row[:11], ","))
		assert.InDelta(t, w.mean, parseFloat(t, row[11]), 1e-12, w.fields)
		assert.InDelta(t, w.se, parseFloat(t, row[12]), 1e-12, w.fields)
	}
}

// A pending run on one environment leaves the family's selection unsettled
// on every environment; a diverged run on one environment ranks the
// candidate last on all of them.
func TestSelectAcrossEnvsWaitsAndPenalizes(t *testing.T) {
	table := map[string][2][2]Outcome{
		"ccn@a": acrossTable["ccn@a"],
		"ccn@b": {{ran(55, 100), {State: Pending}}, {ran(40, 100), ran(60, 100)}},
	}
	r := acrossResults(t, table)
	p := &r.Plans[0]
	for g := range p.Groups {
		_, ok := p.Best(g, r.look)
		assert.False(t, ok, "%s waits for b", p.Groups[g].Name)
	}
	table["ccn@b"] = [2][2]Outcome{{ran(55, 100), {State: Diverged}}, {ran(40, 100), ran(60, 100)}}
	r = acrossResults(t, table)
	p = &r.Plans[0]
	for g := range p.Groups {
		c, ok := p.Best(g, r.look)
		assert.True(t, ok)
		assert.Equal(t, 1, c, "candidate 0 diverged on b")
	}
	sel := r.Selection()
	require.Len(t, sel, 2)
	assert.Equal(t, []int{1, 1}, []int{sel[0].Candidate, sel[1].Candidate})
}

// Parse accepts the two selection modes, across-envs only with envs.
func TestParseSelection(t *testing.T) {
	_, err := Parse([]byte(strings.Replace(acrossStudy, "name: across\n", "name: across\nselection: per-group\n", 1)))
	assert.NoError(t, err)
	_, err = Parse([]byte(strings.Replace(acrossStudy, "name: across\n", "name: across\nselection: across-envs\n", 1)))
	assert.NoError(t, err)
	_, err = Parse([]byte(strings.Replace(acrossStudy, "name: across\n", "name: across\nselection: best\n", 1)))
	assert.ErrorContains(t, err, `selection "best" must be`)
	_, err = Parse([]byte(strings.Replace(strings.Replace(acrossStudy, "envs: [trace-patterning]\n", "", 1),
		"name: across\n", "name: across\nselection: across-envs\n", 1)))
	assert.ErrorContains(t, err, "selection across-envs needs envs")
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return f
}
