package report_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
	"github.com/ccn-go/ccn/sweep"
)

var regenAutoFreezing = flag.Bool("regen-auto-freezing", false, "rewrite testdata/auto-freezing*_golden.png")

// autoRun is the hand-written summary of one final run of the fixture.
type autoRun struct {
	final, variance float64
	stages          []int
}

// autoFixture is a hand-written results directory of auto-freezing.yaml at
// a 10,000-step scale (steps per stage 500, 1,000, 2,500 and 5,000; auto
// between 500 and 5,000), nothing tuned (step size 1e-4), final seeds 0-2:
// the plan as ccn sweep writes it and, per final run, a summary.json holding
// only what the figures read.
var autoFixture = map[string][3]autoRun{
	"ccn/sps=0.5M": {{0.30, 0.6, seq(500, 19)}, {0.36, 0.6, seq(500, 19)}, {0.33, 0.6, seq(500, 19)}},                               // e: 0.5, 0.6, 0.55
	"ccn/sps=1M":   {{0.20, 0.5, seq(1000, 9)}, {0.20, 0.4, seq(1000, 9)}, {0.20, 0.5, seq(1000, 9)}},                               // 0.4, 0.5, 0.4
	"ccn/sps=2.5M": {{0.12, 0.3, seq(2500, 3)}, {0.18, 0.3, seq(2500, 3)}, {0.15, 0.3, seq(2500, 3)}},                               // 0.4, 0.6, 0.5
	"ccn/sps=5M":   {{0.30, 0.5, seq(5000, 1)}, {0.30, 0.5, seq(5000, 1)}, {0.30, 0.5, seq(5000, 1)}},                               // 0.6 each
	"ccn/sps=auto": {{0.06, 0.3, []int{700, 1500, 6500}}, {0.09, 0.3, []int{500, 2000}}, {0.12, 0.3, []int{900, 1400, 3000, 8000}}}, // 0.2, 0.3, 0.4
}

// seq is every, 2·every, …, n·every.
func seq(every, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (i + 1) * every
	}
	return out
}

// writeAutoFixture writes autoFixture into dir.
func writeAutoFixture(t *testing.T, dir string) {
	t.Helper()
	s, err := sweep.Load(filepath.Join(configs, report.StudyAutoFreezing+".yaml"))
	require.NoError(t, err)
	s.Scales[reporttest.Scale] = sweep.Scale{Steps: 10000, FinalSeeds: sweep.Seeds{0, 1, 2},
		Set: map[string]any{"window": 1000, "log-every": 500}, Grid: map[string][]any{"step-size": {1e-4}}}
	p, err := s.Plan(reporttest.Scale)
	require.NoError(t, err)
	require.NoError(t, sweep.SavePlan(dir, p))
	require.Len(t, p.Groups, len(autoFixture))
	for g, grp := range p.Groups {
		runs, ok := autoFixture[grp.Name]
		require.True(t, ok, grp.Name)
		require.Len(t, grp.Candidates, 1, "nothing tuned")
		for i, task := range p.FinalTasks(g, 0) {
			sum := experiments.Summary{Config: task.Config.Config(), Seed: task.Seed, FinalError: runs[i].final,
				ReturnVariance: runs[i].variance, Steps: 10000, Stages: runs[i].stages}
			b, err := json.Marshal(sum)
			require.NoError(t, err)
			rd := sweep.RunDir(dir, task.ID)
			require.NoError(t, os.MkdirAll(rd, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(rd, experiments.SummaryFile), b, 0o644))
		}
	}
}

// TestAutoFreezing: the comparison figure has a point per schedule, fixed
// schedules by steps per stage then auto, at the mean over the final seeds
// of final_error / return_variance, within its bootstrap interval; the stages
// figure reads stage s's freeze from summary.json's stages[s−1] and its
// length from the freeze before it; the fixed schedules freeze at k·P.
func TestAutoFreezing(t *testing.T) {
	dir := t.TempDir()
	writeAutoFixture(t, dir)
	r, err := report.Open(dir, reporttest.Scale)
	require.NoError(t, err)

	fig, err := report.AutoFreezing(r, report.StudyAutoFreezing)
	require.NoError(t, err)
	assert.Equal(t, report.NameAutoFreezing, fig.Name)
	// Hand-computed means of final_error / return_variance, in drawing order.
	want := []struct {
		label string
		mean  string
		lo    float64 // the interval lies within the runs' smallest and largest values
		hi    float64
	}{
		{"500", "0.55", 0.5, 0.6},
		{"1k", "0.4333", 0.4, 0.5},
		{"2.5k", "0.5", 0.4, 0.6},
		{"5k", "0.6", 0.6, 0.6},
		{"auto", "0.3", 0.2, 0.4},
	}
	at := -1
	for _, w := range want {
		i := strings.Index(fig.Caption, ". "+w.label+": "+w.mean+" [")
		require.GreaterOrEqual(t, i, 0, "%s: mean %s not in %q", w.label, w.mean, fig.Caption)
		assert.Greater(t, i, at, "%s out of order", w.label)
		at = i
		var lo, hi float64
		rest := fig.Caption[i+len(". "+w.label+": "+w.mean+" ["):]
		require.NoError(t, sscan(rest, &lo, &hi))
		assert.GreaterOrEqual(t, lo, w.lo-1e-12, w.label)
		assert.LessOrEqual(t, hi, w.hi+1e-12, w.label)
		assert.LessOrEqual(t, lo, hi, w.label)
		if w.lo != w.hi {
			assert.Less(t, lo, hi, "%s: three different values give an interval of some width", w.label)
		}
	}

	stages, err := report.AutoFreezingStages(r, report.StudyAutoFreezing)
	require.NoError(t, err)
	assert.Equal(t, report.NameAutoFreezingStages, stages.Name)
	g, ok := stages.Drawer.(*plots.Grid)
	require.True(t, ok)
	assert.Equal(t, [2]int{1, 2}, [2]int{g.Rows, g.Cols})
	for _, s := range []string{
		// Freezes per stage over the three auto runs (stages[s−1]).
		"stage 1 froze in 3 runs, median step 700 (500-900)",
		"stage 2 froze in 3 runs, median step 1,500 (1,400-2,000)",
		"stage 3 froze in 2 runs, median step 4,750 (3,000-6,500)",
		"stage 4 froze in 1 run, median step 8,000 (8,000-8,000)",
		// Lengths 700 800 5000 | 500 1500 | 900 500 1600 5000.
		"Stage lengths: median 900 over 9 stages",
		// The fixed schedules: stage k at k·P while k·P < 10,000.
		"fixed 500: 19 stages froze, at 500, 1,000, …, 9,500",
		"fixed 1k: 9 stages froze, at 1,000, 2,000, …, 9,000",
		"fixed 2.5k: 3 stages froze, at 2,500, 5,000, 7,500",
		"fixed 5k: 1 stage froze, at 5,000",
		"stage-min 500, stage-max 5,000, a measurement every 5 steps",
	} {
		assert.Contains(t, stages.Caption, s)
	}
}

// sscan reads "lo, hi]" from s.
func sscan(s string, lo, hi *float64) error {
	a, b, _ := strings.Cut(s, "]")
	_ = b
	x, y, _ := strings.Cut(a, ", ")
	if err := json.Unmarshal([]byte(x), lo); err != nil {
		return err
	}
	return json.Unmarshal([]byte(y), hi)
}

// TestAutoFreezingMissing: without the auto group's runs neither figure is
// drawn; a study whose auto runs froze nothing has no stages figure.
func TestAutoFreezingMissing(t *testing.T) {
	dir := t.TempDir()
	writeAutoFixture(t, dir)
	r, err := report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	g, err := r.Group(report.NameAutoFreezing, report.StudyAutoFreezing, "ccn/sps=auto")
	require.NoError(t, err)
	for _, run := range g.Runs {
		s := run.Summary
		s.Stages = nil
		b, err := json.Marshal(s)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(run.Dir, experiments.SummaryFile), b, 0o644))
	}
	r, err = report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	_, err = report.AutoFreezing(r, report.StudyAutoFreezing)
	require.NoError(t, err, "the comparison needs no freezes")
	_, err = report.AutoFreezingStages(r, report.StudyAutoFreezing)
	var m *plots.MissingError
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.What, "no auto run froze a stage")

	for _, run := range g.Runs {
		require.NoError(t, os.Remove(filepath.Join(run.Dir, experiments.SummaryFile)))
	}
	r, err = report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	for _, draw := range []func(*report.Results, string) (report.Figure, error){report.AutoFreezing, report.AutoFreezingStages} {
		_, err = draw(r, report.StudyAutoFreezing)
		require.ErrorAs(t, err, &m)
		assert.Contains(t, m.What, "ccn/sps=auto")
	}
	_, err = report.AutoFreezing(r, report.StudyAutoFreezingAtari)
	require.ErrorAs(t, err, &m, "a study not run is missing data")
}

// TestAutoFreezingGolden draws the two figures from the hand-written fixture
// and compares them with testdata/NAME_golden.png pixel for pixel. After an
// intended change of the drawing, regenerate with
//
//	go test ./report -run TestAutoFreezingGolden -regen-auto-freezing
//
// and look at the new images before committing them.
func TestAutoFreezingGolden(t *testing.T) {
	dir := t.TempDir()
	writeAutoFixture(t, dir)
	r, err := report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	for _, b := range []struct {
		name string
		draw func(*report.Results, string) (report.Figure, error)
	}{{report.NameAutoFreezing, report.AutoFreezing}, {report.NameAutoFreezingStages, report.AutoFreezingStages}} {
		t.Run(b.name, func(t *testing.T) {
			fig, err := b.draw(r, report.StudyAutoFreezing)
			require.NoError(t, err)
			assertGolden(t, b.name, renderGolden(t, fig.Drawer), *regenAutoFreezing, "-regen-auto-freezing")
		})
	}
}
