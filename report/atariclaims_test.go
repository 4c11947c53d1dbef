package report_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gonum.org/v1/plot"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// The Atari claims fixture: the three Atari files at their medium scale
// (its grid, selection across games, T-BPTT pairs merged into one group),
// shrunk to two games, 100 steps and final seeds 100-102, with summaries
// written by hand. Sweep runs: the candidate at step size 1e-4 (for T-BPTT,
// the pair 5:7 at 1e-4) scores 0.5 of the best constant's error, every other
// 0.8, except Columnar at 3e-4 on freeway (0.4, so that freeway's own choice
// differs). Final runs: the errors of atariFinals, return variance 2 on
// breakout and 0.5 on freeway.
var atariFinals = map[string]map[string][]float64{ // study/family → game → seeds 100-102 (NaN: diverged)
	"atari-main-comparison/tbptt":              {"breakout": {1, 1, 1}, "freeway": {0.4, 0.4, 0.4}},
	"atari-main-comparison/ccn":                {"breakout": {0.5, 0.5, 0.5}, "freeway": {0.2, 0.24, 0.28}},
	"atari-main-comparison/columnar":           {"breakout": {0.8, 0.8, 0.8}, "freeway": {0.6, 0.6, 0.6}},
	"atari-main-comparison/constructive":       {"breakout": {1.2, 1.2, 1.2}, "freeway": {0.36, 0.36, 0.36}},
	"atari-main-comparison/linear":             {"breakout": {1.5, 1.5, 1.5}, "freeway": {0.44, 0.44, 0.44}},
	"atari-normalization-ablation/ccn":         {"breakout": {0.6, 0.6, 0.6}, "freeway": {0.3, 0.3, 0.3}},
	"atari-normalization-ablation/ccn-no-norm": {"breakout": {math.NaN(), 0.9, 0.9}, "freeway": {0.3, 0.3, 0.3}},
	"atari-tbptt-capacity/capacity/H=2":        {"breakout": {3, 3, 3}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/capacity/H=4":        {"breakout": {2.5, 2.5, 2.5}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/capacity/H=8":        {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/capacity/H=15":       {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/truncation/k=2":      {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/truncation/k=4":      {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/truncation/k=8":      {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
	"atari-tbptt-capacity/truncation/k=15":     {"breakout": {2, 2, 2}, "freeway": {1, 1, 1}},
}

var atariVariance = map[string]float64{"breakout": 2, "freeway": 0.5}

// atariCurve is the curve.csv of a final run, in units of its return
// variance: above it at first, then below. Columnar's seed 101 on breakout
// bursts twice above it after that.
func atariCurve(family, env string, seed uint64) []float64 {
	if family == "columnar" && env == "breakout" && seed == 101 {
		return []float64{2, 0.5, 1.5, 0.4, 1.2}
	}
	return []float64{2, 0.5, 0.4}
}

func writeSummary(t *testing.T, dir string, task sweep.Task, e, rv float64, curve []float64) {
	t.Helper()
	run := sweep.RunDir(dir, task.ID)
	require.NoError(t, os.MkdirAll(run, 0o755))
	sum := experiments.Summary{Config: task.Config.Config(), Seed: task.Seed, Steps: 100, FinalError: e, ReturnVariance: rv}
	if math.IsNaN(e) {
		sum.FinalError, sum.Diverged = 0, true
	}
	b, err := json.Marshal(sum)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(run, experiments.SummaryFile), b, 0o644))
	if curve != nil {
		text := "step,error\n"
		for i, c := range curve {
			text += fmt.Sprintf("%d,%g\n", 25*(i+1), c*rv)
		}
		require.NoError(t, os.WriteFile(filepath.Join(run, experiments.CurveFile), []byte(text), 0o644))
	}
}

// writeAtariMedium writes the fixture into dir and returns the plans.
func writeAtariMedium(t *testing.T, dir string) []sweep.Plan {
	t.Helper()
	var plans []sweep.Plan
	for _, study := range []string{report.StudyAtariMain, report.StudyAtariNormalization, report.StudyAtariCapacity} {
		s, err := sweep.Load(filepath.Join(configs, study+".yaml"))
		require.NoError(t, err)
		sc := s.Scales[report.AtariClaimsScale]
		sc.Steps, sc.FinalSteps, sc.Envs = 100, 0, []string{"breakout", "freeway"}
		sc.FinalSeeds = sweep.Seeds{100, 101, 102}
		sc.Set = map[string]any{"window": 50, "log-every": 25}
		if study != report.StudyAtariCapacity {
			sc.Set["norm-decay"] = 0.999998
		}
		s.Scales[report.AtariClaimsScale] = sc
		p, err := s.Plan(report.AtariClaimsScale)
		require.NoError(t, err)
		require.NoError(t, sweep.SavePlan(dir, p))
		plans = append(plans, p)
		for g, grp := range p.Groups {
			rv := atariVariance[grp.Env]
			chosen := -1
			for c, cand := range grp.Candidates {
				cfg := cand.Config.Config()
				good := cfg.StepSize == 1e-4 && (cfg.Method != "tbptt" || cfg.Hidden == 7 || len(grp.Candidates) == 1)
				if good {
					chosen = c
				}
				rel := 0.8
				if good {
					rel = 0.5
				}
				if grp.Family == "columnar" && grp.Env == "freeway" && cfg.StepSize == 3e-4 {
					rel = 0.4
				}
				for _, task := range p.SweepTasks(g) {
					if task.Candidate == c {
						writeSummary(t, dir, task, rel*rv, rv, nil)
					}
				}
			}
			if len(grp.Candidates) == 1 {
				chosen = 0
			}
			require.GreaterOrEqual(t, chosen, 0, "group %s has a candidate at step size 1e-4", grp.Name)
			errs, ok := atariFinals[study+"/"+grp.Family][grp.Env]
			require.True(t, ok, "fixture has %s/%s on %s", study, grp.Family, grp.Env)
			for i, task := range p.FinalTasks(g, chosen) {
				writeSummary(t, dir, task, errs[i], rv, atariCurve(grp.Family, grp.Env, task.Seed))
			}
		}
	}
	return plans
}

// cells returns the cells of the Markdown table row of text whose first
// cells are prefix.
func cells(t *testing.T, text string, prefix ...string) []string {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		c := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
		}
		if len(c) >= len(prefix) && slices.Equal(c[:len(prefix)], prefix) {
			return c
		}
	}
	t.Fatalf("no row %q in\n%s", prefix, text)
	return nil
}

// parseInterval reads "m [lo, hi]" (or with signs).
func parseInterval(t *testing.T, s string) (m, lo, hi float64) {
	t.Helper()
	_, err := fmt.Sscanf(strings.NewReplacer("[", " ", "]", " ", ",", " ").Replace(s), "%g %g %g", &m, &lo, &hi)
	require.NoError(t, err, "interval %q", s)
	return m, lo, hi
}

func meanOf(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func medianOf(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func g3(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// TestAtariClaimsTable checks the Atari claims table's numbers against the
// fixture's errors, computed here: per group and game the complete runs,
// diverged runs, medians of the error, of the error over the best constant's
// and over the selected T-BPTT's mean error on the game, their means, and
// intervals that contain the mean and lie within the range a resample can
// reach (a game whose runs all have one value has that value as interval);
// the verdict of each claim; the selection sensitivity table.
func TestAtariClaimsTable(t *testing.T) {
	dir := t.TempDir()
	writeAtariMedium(t, dir)
	res, err := sweep.Collect(dir)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, report.WriteAtariClaims(&b, res))
	text := b.String()

	ref := atariFinals["atari-main-comparison/tbptt"]
	for key, byGame := range atariFinals {
		study, family, _ := strings.Cut(key, "/")
		if study == report.StudyAtariCapacity {
			continue
		}
		var meanNorm, meanRel float64
		for _, env := range []string{"breakout", "freeway"} {
			var errs []float64
			for _, e := range byGame[env] {
				if !math.IsNaN(e) {
					errs = append(errs, e)
				}
			}
			rv, r := atariVariance[env], meanOf(ref[env])
			var rel, norm []float64
			for _, e := range errs {
				rel, norm = append(rel, e/rv), append(norm, e/r)
			}
			c := cells(t, text, study, family, env)
			where := key + " on " + env
			assert.Equal(t, strconv.Itoa(len(errs)), c[3], "%s: n", where)
			assert.Equal(t, strconv.Itoa(3-len(errs)), c[4], "%s: diverged", where)
			assert.Equal(t, g3(medianOf(errs)), c[5], "%s: median error", where)
			for i, xs := range [][]float64{rel, norm} {
				med, iv, _ := strings.Cut(c[6+i], "; ")
				assert.Equal(t, g3(medianOf(xs)), med, "%s: median of column %d", where, 6+i)
				m, lo, hi := parseInterval(t, iv)
				assert.Equal(t, g3(meanOf(xs)), g3(m), "%s: mean of column %d", where, 6+i)
				if family != "tbptt" { // the reference's own ratio resamples its seeds twice
					assert.True(t, slices.Min(xs) <= lo+1e-9 && lo <= m && m <= hi && hi <= slices.Max(xs)+1e-9,
						"%s: interval [%v, %v] of %v within the runs' range [%v, %v]", where, lo, hi, m, slices.Min(xs), slices.Max(xs))
				}
			}
			meanNorm += meanOf(norm) / 2
			meanRel += meanOf(rel) / 2
			bursts := "0 (0)"
			if family == "columnar" && env == "breakout" && study == report.StudyAtariMain {
				bursts = "2 (1)"
			}
			assert.Equal(t, bursts, c[8], "%s: bursts", where)
		}
		c := cells(t, text, study, family, "mean")
		m, _, _ := parseInterval(t, strings.SplitN(c[7], "; ", 2)[1])
		assert.Equal(t, g3(meanNorm), g3(m), "%s: mean over games of error / T-BPTT", key)
		m, _, _ = parseInterval(t, strings.SplitN(c[6], "; ", 2)[1])
		assert.Equal(t, g3(meanRel), g3(m), "%s: mean over games of error / best constant", key)
	}

	// Selection: the step size 1e-4 everywhere, T-BPTT's pair 5:7.
	for _, f := range []string{"ccn", "columnar", "constructive", "linear", "tbptt"} {
		assert.Contains(t, cells(t, text, report.StudyAtariMain, f)[2], "step-size=0.0001", f)
	}
	assert.Contains(t, cells(t, text, report.StudyAtariMain, "tbptt")[2], "hidden=7")

	// Claims, from the fixture: CCN / T-BPTT is 0.5 on breakout and within
	// [0.5, 0.7] on freeway (0.6); Columnar's mean 1.15 and Constructive's
	// 1.05 have no spread; (Columnar − CCN) / T-BPTT 0.3 and 0.9 → 0.6,
	// (Constructive − CCN) 0.7 and 0.3 → 0.5; capacity H = 2 over 15:
	// 1.5 and 1 → 1.25; truncation 1 and 1 → 1; without normalization over
	// with: 1.5 and 1 → 1.25, one diverged run without.
	want := []struct{ id, value, verdict string }{
		{"A1", "interval below 1 on 2 of 2 games", "**holds**"},
		{"A2", "0.55", "**holds**"},
		{"A3", "1.15 [1.15, 1.15]", "**fails** clearly"},
		{"A4", "1.05 [1.05, 1.05]", "**fails** clearly"},
		{"A5", "+0.6", "**holds**"},
		{"A6", "+0.5", "**holds**"},
		{"A7", "1.25 [1.25, 1.25] (each value over 15: H=2 1.25, H=4 1.12, H=8 1, H=15 1)", "**holds**"},
		{"A8", "1 [1, 1]", "**fails**"},
		{"A9", "1.25 [1.25, 1.25]; diverged final runs: 0 with, 1 without", "**holds**"},
	}
	for _, w := range want {
		c := cells(t, text, w.id)
		assert.Contains(t, c[2], w.value, w.id)
		assert.Equal(t, w.verdict, c[3], w.id)
	}

	// Sensitivity: Columnar's freeway runs alone would take 3e-4.
	b.Reset()
	require.NoError(t, report.WriteAtariSensitivity(&b, res))
	sens := b.String()
	c := cells(t, sens, report.StudyAtariMain, "columnar")
	require.Len(t, c, 7)
	c = cells(t, sens, report.StudyAtariMain, "columnar", c[2], "freeway")
	assert.Equal(t, []string{"epsilon=0.001 step-size=0.0003", "0.4 (n = 2)", "0.5 (n = 2)"}, c[4:])
	c = cells(t, sens, report.StudyAtariMain, "columnar", c[2], "breakout")
	assert.Equal(t, []string{"epsilon=0.001 step-size=0.0001 (the same)", "0.5 (n = 2)", "0.5 (n = 2)"}, c[4:])
	assert.NotContains(t, sens, report.StudyAtariCapacity, "the capacity study selects nothing")
}

// Without a plan at the claims scale the table is an error, not an empty
// table.
func TestAtariClaimsWithoutResults(t *testing.T) {
	dir := t.TempDir()
	writeAtari(t, dir, report.StudyAtariMain, []string{"ccn", "tbptt/5:7"}, func(string, string, uint64) float64 { return 1 })
	res, err := sweep.Collect(dir)
	require.NoError(t, err)
	var b strings.Builder
	assert.ErrorContains(t, report.WriteAtariClaims(&b, res), "no plan of atari-main-comparison at scale medium")
	assert.ErrorContains(t, report.WriteAtariSensitivity(&b, res), "scale medium")
}

// At the medium scale ccn plot draws Figs. 8, 9, 11 and 13 from the
// fixture (Fig. 10 lacks predictions.csv), and Figs. 8, 9 and 13 draw the
// bootstrap intervals of normalized.csv: Fig. 9's y range starts at the
// lower end of CCN's interval over games (0.5), not at mean − s.e.
func TestAtariMediumFigures(t *testing.T) {
	dir := t.TempDir()
	writeAtariMedium(t, dir)
	rep, err := report.Render(dir, t.TempDir(), report.Options{Scale: report.AtariClaimsScale}, io.Discard)
	require.NoError(t, err)
	var drawn []string
	for _, f := range rep.Drawn {
		drawn = append(drawn, f.Name)
		if f.Name == report.NameAtariNormalized || f.Name == report.NameAtariAverage || f.Name == report.NameAtariNormalization {
			assert.Contains(t, f.Caption, "95% bootstrap interval", f.Name)
		}
	}
	for _, name := range []string{report.NameAtariNormalized, report.NameAtariAverage, report.NameAtariCapacity, report.NameAtariNormalization} {
		assert.Contains(t, drawn, name)
	}
	assert.NotContains(t, drawn, report.NameAtariPredictions)

	r, err := report.Open(dir, report.AtariClaimsScale)
	require.NoError(t, err)
	fig, err := report.AtariAverage(r)
	require.NoError(t, err)
	assert.InDelta(t, 0.5, fig.Drawer.(*plot.Plot).Y.Min, 1e-12, "CCN's interval over games starts at (0.5 + 0.2/0.4)/2")
	assert.Equal(t, plots.NormalizedIntervalLabel, fig.Drawer.(*plot.Plot).Y.Label.Text)
}

// Fig. 10 takes the lowest common seed whose two runs kept predictions.csv
// (the committed results keep it for one seed): here seed 101 on breakout,
// where seed 100's runs have none; freeway, with none, is listed as not
// drawn.
func TestAtariPredictionsSeedWithPredictions(t *testing.T) {
	dir := t.TempDir()
	plans := writeAtariMedium(t, dir)
	p := plans[0]
	for g, grp := range p.Groups {
		if grp.Env != "breakout" || (grp.Family != "ccn" && grp.Family != "tbptt") {
			continue
		}
		for c := range grp.Candidates {
			task := p.FinalTask(g, c, 101)
			if _, err := os.Stat(filepath.Join(sweep.RunDir(dir, task.ID), experiments.SummaryFile)); err != nil {
				continue // not the selected candidate
			}
			text := "t,prediction,return\n"
			for i := range 10 {
				text += fmt.Sprintf("%d,%g,%g\n", 90+i, 0.1*float64(i), 0.2*float64(i))
			}
			require.NoError(t, os.WriteFile(filepath.Join(sweep.RunDir(dir, task.ID), experiments.PredictionsFile), []byte(text), 0o644))
		}
	}
	r, err := report.Open(dir, report.AtariClaimsScale)
	require.NoError(t, err)
	fig, err := report.AtariPredictions(r, 5)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "breakout: CCN and T-BPTT hidden=7 step-size=0.0001 truncation=5, seed 101, last 5 steps")
	assert.Contains(t, fig.Caption, "Not drawn: freeway (")
	assert.Contains(t, fig.Caption, "Reference: the T-BPTT configuration selected once for every game (tbptt hidden=7 step-size=0.0001 truncation=5)")
	assert.Contains(t, fig.Drawer.(*plots.Grid).Title, "CCN and the selected T-BPTT on each game")
}

// While runs are pending the tables are provisional, not an error: a family
// with a sweep run pending is marked, a group without complete final runs
// has no values and its claims say "no runs", and a claim that reads a
// group with final runs pending or a selection not settled says so.
func TestAtariClaimsPending(t *testing.T) {
	dir := t.TempDir()
	plans := writeAtariMedium(t, dir)
	p := plans[0]
	capacity := plans[2]
	for g, grp := range capacity.Groups { // two of the three final runs of capacity H = 2 on freeway pending
		if grp.Family == "capacity/H=2" && grp.Env == "freeway" {
			for _, task := range capacity.FinalTasks(g, 0)[1:] {
				require.NoError(t, os.RemoveAll(sweep.RunDir(dir, task.ID)))
			}
		}
	}
	for g, grp := range p.Groups {
		switch grp.Family {
		case "ccn": // no final run of CCN yet
			for c := range grp.Candidates {
				for _, task := range p.FinalTasks(g, c) {
					require.NoError(t, os.RemoveAll(sweep.RunDir(dir, task.ID)))
				}
			}
		case "columnar": // one check run of Columnar pending
			if grp.Env == "freeway" {
				require.NoError(t, os.RemoveAll(sweep.RunDir(dir, p.SweepTasks(g)[0].ID)))
			}
		case "linear": // no check run of the control on freeway yet
			if grp.Env == "freeway" {
				for _, task := range p.SweepTasks(g) {
					require.NoError(t, os.RemoveAll(sweep.RunDir(dir, task.ID)))
				}
			}
		}
	}
	res, err := sweep.Collect(dir)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, report.WriteAtariClaims(&b, res))
	text := b.String()
	assert.Equal(t, "**no** (sweep running: provisional)", cells(t, text, report.StudyAtariMain, "columnar")[3])
	assert.NotContains(t, cells(t, text, report.StudyAtariMain, "columnar")[2], "none yet", "Columnar's other check runs score its candidates")
	assert.Equal(t, []string{"none yet (no candidate has a complete check run on every game)", "**no** (sweep running: provisional)"},
		cells(t, text, report.StudyAtariMain, "linear")[2:4], "no candidate of the control is scored on freeway")
	assert.Equal(t, "yes", cells(t, text, report.StudyAtariMain, "constructive")[3])
	assert.Equal(t, []string{"0", "0", "—", "—; —", "—; —", "0 (0)"}, cells(t, text, report.StudyAtariMain, "ccn", "breakout")[3:])
	for _, id := range []string{"A1", "A2", "A5", "A6"} {
		assert.Equal(t, "no runs", cells(t, text, id)[3], id)
	}
	assert.Equal(t, "**fails** clearly (provisional: a selection not settled)", cells(t, text, "A3")[3],
		"Columnar's finals of its provisional selection are there")
	assert.Equal(t, "**fails** clearly", cells(t, text, "A4")[3], "Constructive and T-BPTT are complete")
	// One run of H = 2 on freeway: A7 has its value (1.25) but no interval,
	// so it holds as a trend at most.
	assert.Contains(t, cells(t, text, "A7")[2], "1.25 [no interval: one run]")
	assert.Equal(t, "**holds as a trend** (provisional: 2 final runs pending)", cells(t, text, "A7")[3])
	assert.Equal(t, "**fails**", cells(t, text, "A8")[3], "the truncation groups are complete")
	assert.Equal(t, "**holds**", cells(t, text, "A9")[3])
}
