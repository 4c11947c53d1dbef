package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/sweep"
)

// writeAtari saves study's plan at a two-game test scale of the given groups
// into dir and writes a summary for each final run: final error err(group,
// game, seed), diverged when it returns a negative value, no run at all for
// NaN (pending).
func writeAtari(t *testing.T, dir, study string, only []string, final func(family, env string, seed uint64) float64) {
	t.Helper()
	writeAtariEnvs(t, dir, study, []string{"breakout", "freeway"}, only, final)
}

// writeAtariEnvs is writeAtari on the games envs.
func writeAtariEnvs(t *testing.T, dir, study string, envs, only []string, final func(family, env string, seed uint64) float64) {
	t.Helper()
	s, err := sweep.Load(filepath.Join(configs, study+".yaml"))
	require.NoError(t, err)
	s.Scales["test"] = sweep.Scale{Steps: 100, FinalSeeds: sweep.Seeds{0, 1}, Envs: envs, Only: only,
		Set: map[string]any{"window": 50}, Grid: map[string][]any{"step-size": {3e-4}, "epsilon": {0.001}}}
	p, err := s.Plan("test")
	require.NoError(t, err)
	require.NoError(t, sweep.SavePlan(dir, p))
	for g, grp := range p.Groups {
		for _, task := range p.FinalTasks(g, 0) {
			e := final(grp.Family, grp.Env, task.Seed)
			if e != e {
				continue
			}
			run := sweep.RunDir(dir, task.ID)
			require.NoError(t, os.MkdirAll(run, 0o755))
			sum := experiments.Summary{Config: task.Config.Config(), Seed: task.Seed, Steps: 100, FinalError: e, Diverged: e < 0}
			b, err := json.Marshal(sum)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(run, experiments.SummaryFile), b, 0o644))
		}
	}
}

// The Atari figures draw what they can and say in the caption what is left
// out: a game without a complete CCN run, diverged runs; a figure whose
// study is absent is skipped naming it.
func TestAtariFiguresMissingAndDiverged(t *testing.T) {
	dir := t.TempDir()
	nan := func() float64 { var z float64; return z / z }()
	writeAtari(t, dir, report.StudyAtariMain, []string{"ccn", "columnar", "constructive", "tbptt/5:7"},
		func(family, env string, seed uint64) float64 {
			switch {
			case family == "ccn" && env == "freeway":
				return -1 // both diverged: no value on freeway
			case family == "columnar" && env == "breakout" && seed == 1:
				return nan // pending
			case family == "tbptt/5:7":
				return 2
			}
			return 1 + float64(seed)
		})
	writeAtari(t, dir, report.StudyAtariNormalization, nil, func(family, env string, seed uint64) float64 {
		if family == "ccn-no-norm" && seed == 0 {
			return -1
		}
		return 3
	})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)

	fig, err := report.AtariNormalized(r)
	require.NoError(t, err, "breakout has a value")
	assert.Contains(t, fig.Caption, "ccn on freeway: 2 diverged, no value")
	assert.NotContains(t, fig.Caption, "Every final run complete")

	fig, err = report.AtariAverage(r)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "ccn on mean: 2 diverged, averaged over 1 games, missing freeway")
	assert.Contains(t, fig.Caption, "columnar on mean: 1 failed or pending")

	fig, err = report.AtariNormalization(r)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "ccn-no-norm on breakout: 1 diverged")

	_, err = report.AtariCapacity(r)
	var m *plots.MissingError
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.What, "study atari-tbptt-capacity not in")
}

// A figure with no value at all is skipped, never drawn empty.
func TestAtariFigureWithoutValues(t *testing.T) {
	dir := t.TempDir()
	writeAtari(t, dir, report.StudyAtariMain, []string{"ccn", "tbptt/5:7"}, func(family, env string, seed uint64) float64 {
		if family == "ccn" {
			return -1
		}
		return 2
	})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	_, err = report.AtariNormalized(r)
	var m *plots.MissingError
	require.ErrorAs(t, err, &m)
	assert.True(t, strings.Contains(m.What, "no entry with a value"), m.What)

	_, err = report.AtariPredictions(r, 100)
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.What, "breakout (no complete CCN run); freeway (no complete CCN run)")
}

// The predictions figure has a panel per game; an odd number of games
// leaves the last tile of its two-column grid blank (five games drew a
// 3×2 grid of five panels, which panicked).
func TestAtariPredictionsOddGames(t *testing.T) {
	for _, envs := range [][]string{{"breakout"}, {"breakout", "freeway", "asterix"}, {"breakout", "freeway", "asterix", "seaquest", "space-invaders"}} {
		dir := t.TempDir()
		writeAtariEnvs(t, dir, report.StudyAtariMain, envs, []string{"ccn", "tbptt/5:7"}, func(family, env string, seed uint64) float64 { return 1 })
		runs, err := filepath.Glob(filepath.Join(dir, "runs", "*", "summary.json"))
		require.NoError(t, err)
		require.Len(t, runs, 4*len(envs))
		for _, run := range runs {
			csv := "t,prediction,return\n98,0.5,1\n99,0.25,0.5\n"
			require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(run), "predictions.csv"), []byte(csv), 0o644))
		}
		r, err := report.Open(dir, "test")
		require.NoError(t, err)
		fig, err := report.AtariPredictions(r, 100)
		require.NoError(t, err, "%d games", len(envs))
		g, ok := fig.Drawer.(*plots.Grid)
		require.True(t, ok, "a grid of panels")
		assert.Equal(t, (len(envs)+1)/2, g.Rows, "%d games", len(envs))
		drawn := 0
		for _, p := range g.Panels {
			if p != nil {
				drawn++
			}
		}
		assert.Equal(t, len(envs), drawn, "a panel per game")
		for _, env := range envs {
			assert.Contains(t, fig.Caption, env+": CCN and T-BPTT 5:7, seed 0")
		}
		require.NoError(t, plots.Save(fig.Drawer, filepath.Join(dir, "predictions")), "a blank tile draws")
		assert.FileExists(t, filepath.Join(dir, "predictions.png"))
	}
}

// The caption names each group's selected configuration once when every game
// selected the same, and per game where they differ.
func TestAtariCaptionSelections(t *testing.T) {
	dir := t.TempDir()
	s, err := sweep.Load(filepath.Join(configs, report.StudyAtariMain+".yaml"))
	require.NoError(t, err)
	s.Scales["test"] = sweep.Scale{Steps: 100, SweepSeeds: sweep.Seeds{0}, FinalSeeds: sweep.Seeds{5, 6}, Envs: []string{"breakout", "freeway"},
		Only: []string{"ccn", "tbptt/5:7"}, Set: map[string]any{"window": 50},
		Grid: map[string][]any{"step-size": {3e-4, 1e-3}, "epsilon": {0.001}}}
	s.Selection = sweep.PerGroup // games that select differently (the file selects across them)
	p, err := s.Plan("test")
	require.NoError(t, err)
	require.NoError(t, sweep.SavePlan(dir, p))
	write := func(task sweep.Task, e float64) {
		run := sweep.RunDir(dir, task.ID)
		require.NoError(t, os.MkdirAll(run, 0o755))
		b, err := json.Marshal(experiments.Summary{Config: task.Config.Config(), Seed: task.Seed, Steps: 100, FinalError: e})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(run, experiments.SummaryFile), b, 0o644))
	}
	for g, grp := range p.Groups {
		for _, task := range p.SweepTasks(g) {
			e := 1.0 // step size 3e-4 best, except CCN on freeway
			if (task.Config.Config().StepSize == 1e-3) != (grp.Family == "ccn" && grp.Env == "freeway") {
				e = 2
			}
			write(task, e)
		}
		for c := range grp.Candidates {
			for _, task := range p.FinalTasks(g, c) {
				write(task, 1)
			}
		}
	}
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	fig, err := report.AtariNormalized(r)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "selected (on every game unless games are named): ccn epsilon=0.001 step-size=0.0003 (breakout); epsilon=0.001 step-size=0.001 (freeway), tbptt/5:7 step-size=0.0003.")
}

// Capacity: each game's errors over the value at 15, then the mean over
// games. Game breakout: H=2 error 4, H=15 error 2 → 2; freeway: 3 and 3 → 1;
// the mean is 1.5, and H=15 is 1 exactly.
func TestAtariCapacityNormalizesAt15(t *testing.T) {
	dir := t.TempDir()
	writeAtari(t, dir, report.StudyAtariCapacity, []string{"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"},
		func(family, env string, seed uint64) float64 {
			if family == "capacity/H=2" && env == "breakout" {
				return 4
			}
			if strings.HasSuffix(family, "15") && env == "breakout" {
				return 2
			}
			return 3
		})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	fig, err := report.AtariCapacity(r)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "H=2 over 2 games")
	pts, err := report.AtariCapacityPoints(r)
	require.NoError(t, err)
	assert.InDelta(t, 1.5, pts[0][0].Mean, 1e-12, "H=2")
	assert.InDelta(t, 1.0, pts[0][1].Mean, 1e-12, "H=15")
	assert.InDelta(t, 1.25, pts[1][0].Mean, 1e-12, "k=2: breakout 3/2, freeway 3/3")
}

// Fig. 11 while its runs come in: a panel whose values are all pending
// leaves its tile blank and the caption says so; the other is drawn. With
// neither panel's values the figure is skipped.
func TestAtariCapacityOnePanelPending(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	for _, name := range []string{"capacity only", "neither"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeAtari(t, dir, report.StudyAtariCapacity, []string{"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"},
				func(family, env string, seed uint64) float64 {
					if strings.HasPrefix(family, "truncation/") || name == "neither" {
						return nan
					}
					return 2
				})
			r, err := report.Open(dir, "test")
			require.NoError(t, err)
			fig, err := report.AtariCapacity(r)
			if name == "neither" {
				var m *plots.MissingError
				require.ErrorAs(t, err, &m)
				assert.Contains(t, m.What, "the panel T-BPTT capacity, k = 8 left blank")
				assert.Contains(t, m.What, "the panel T-BPTT truncation, H = 8 left blank")
				return
			}
			require.NoError(t, err)
			panels := fig.Drawer.(*plots.Grid).Panels
			require.Len(t, panels, 2)
			require.NotNil(t, panels[0])
			assert.Equal(t, "T-BPTT capacity, k = 8", panels[0].Title.Text)
			assert.Contains(t, panels[0].Y.Label.Text, "95% interval", "two runs on each game")
			assert.Nil(t, panels[1], "the truncation panel has no value")
			assert.Contains(t, fig.Caption, "the panel T-BPTT truncation, H = 8 left blank (no entry with a value)")
			assert.NotContains(t, fig.Caption, "the panel T-BPTT capacity")
			assert.NotEmpty(t, drawnStrings(fig.Drawer))
		})
	}
}

// With one run on a game, Fig. 11 has no interval to draw but at 15, and
// its y axis says so instead of promising 95% intervals.
func TestAtariCapacityOneRunNoInterval(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	dir := t.TempDir()
	writeAtari(t, dir, report.StudyAtariCapacity, []string{"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"},
		func(family, env string, seed uint64) float64 {
			if seed == 1 {
				return nan // pending
			}
			return 2
		})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	fig, err := report.AtariCapacity(r)
	require.NoError(t, err)
	for _, p := range fig.Drawer.(*plots.Grid).Panels {
		assert.Contains(t, p.Y.Label.Text, "one run, no interval", "panel %q", p.Title.Text)
		assert.NotContains(t, p.Y.Label.Text, "95%", "panel %q", p.Title.Text)
	}
}

// Fig. 10 names the study it looked in when CCN and T-BPTT share no seed:
// the Atari main comparison, not trace patterning's main comparison.
func TestAtariPredictionsNoCommonSeedNamesStudy(t *testing.T) {
	dir := t.TempDir()
	nan := func() float64 { var z float64; return z / z }()
	writeAtari(t, dir, report.StudyAtariMain, []string{"ccn", "tbptt/5:7"}, func(family, env string, seed uint64) float64 {
		if (family == "ccn") == (seed == 1) {
			return nan // CCN completed seed 0 only, T-BPTT seed 1 only
		}
		return 1
	})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	_, err = report.AtariPredictions(r, 100)
	var m *plots.MissingError
	require.ErrorAs(t, err, &m)
	assert.Contains(t, m.What, "breakout ("+report.StudyAtariMain+": CCN and T-BPTT have no complete final run with a common seed)")
	assert.Contains(t, m.What, "freeway ("+report.StudyAtariMain+": CCN and T-BPTT have no complete final run with a common seed)")
}

// Fig. 11's bars are 95% bootstrap intervals over seeds, as Figs. 8 and 9:
// on breakout H=2 ran 3 and 5 (seeds 0, 1) against 2 and 2 at H=15, on
// freeway 1 and 1 against 1 and 1. A replicate's breakout mean is 3, 4 or 5
// (probabilities 1/4, 1/2, 1/4), so the mean over games of the ratios is
// 1.25, 1.5 or 1.75 and the 2.5% and 97.5% quantiles of 2,000 replicates are
// 1.25 and 1.75; the value at 15 is 1 with the interval [1, 1]. k=2 ran 1
// on both games (k=15: 2 on breakout), a constant ratio 0.75.
func TestAtariCapacityBootstrapIntervals(t *testing.T) {
	dir := t.TempDir()
	writeAtari(t, dir, report.StudyAtariCapacity, []string{"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"},
		func(family, env string, seed uint64) float64 {
			switch {
			case family == "capacity/H=2" && env == "breakout":
				return 3 + 2*float64(seed)
			case strings.HasSuffix(family, "15") && env == "breakout":
				return 2
			}
			return 1
		})
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	pts, err := report.AtariCapacityPoints(r)
	require.NoError(t, err)
	h2, h15 := pts[0][0], pts[0][1]
	require.Equal(t, "H=2", h2.Label)
	assert.InDelta(t, 1.5, h2.Mean, 1e-12)
	assert.True(t, h2.Interval, "H=2 has a bootstrap interval")
	assert.InDelta(t, 1.25, h2.Low, 1e-12, "H=2 low")
	assert.InDelta(t, 1.75, h2.High, 1e-12, "H=2 high")
	assert.True(t, h15.Interval && h15.Low == 1 && h15.High == 1 && h15.Mean == 1, "H=15: 1 by definition, %+v", h15)
	k2 := pts[1][0]
	assert.True(t, k2.Interval && k2.Low == 0.75 && k2.High == 0.75, "k=2: every replicate (1/2 + 1/1)/2, %+v", k2)

	fig, err := report.AtariCapacity(r)
	require.NoError(t, err)
	assert.Contains(t, fig.Caption, "95% bootstrap intervals")
	assert.NotContains(t, fig.Caption, "s.e.²")
	for _, p := range fig.Drawer.(*plots.Grid).Panels {
		assert.Contains(t, p.Y.Label.Text, "95% interval", "panel %q", p.Title.Text)
	}
}

// drawnStrings returns the strings d draws on a 6×8 inch canvas.
func drawnStrings(d plots.Drawer) []string {
	var rec recorder.Canvas
	d.Draw(draw.NewCanvas(&rec, 6*vg.Inch, 8*vg.Inch))
	var out []string
	for _, a := range rec.Actions {
		if s, ok := a.(*recorder.FillString); ok {
			out = append(out, s.String)
		}
	}
	return out
}

// The line at 1 of Figs. 8, 9 and 13 and their captions name the reference
// as it was chosen: at the medium scale (the T-BPTT pairs one group, one
// configuration for every game) the selected T-BPTT; with the pairs as
// groups of their own, the best of them on each game.
func TestAtariReferenceNamed(t *testing.T) {
	figs := []func(*report.Results) (report.Figure, error){report.AtariNormalized, report.AtariAverage, report.AtariNormalization}

	dir := t.TempDir()
	writeAtariMedium(t, dir)
	r, err := report.Open(dir, report.AtariClaimsScale)
	require.NoError(t, err)
	for _, draw := range figs {
		fig, err := draw(r)
		require.NoError(t, err)
		texts := drawnStrings(fig.Drawer)
		assert.Contains(t, texts, "selected T-BPTT", fig.Name)
		assert.NotContains(t, strings.Join(texts, "\n"), "best T-BPTT", fig.Name)
		assert.Contains(t, fig.Caption, "Reference: the T-BPTT configuration selected once for every game (tbptt hidden=7 step-size=0.0001 truncation=5)", fig.Name)
		assert.NotContains(t, fig.Caption, "best T-BPTT", fig.Name)
	}

	dir = t.TempDir()
	pairs := []string{"ccn", "tbptt/15:2", "tbptt/5:7"}
	best := func(family, env string, seed uint64) float64 {
		switch family {
		case "tbptt/15:2":
			return map[string]float64{"breakout": 2, "freeway": 3}[env]
		case "tbptt/5:7":
			return map[string]float64{"breakout": 3, "freeway": 2}[env]
		}
		return 1
	}
	writeAtari(t, dir, report.StudyAtariMain, pairs, best)
	writeAtari(t, dir, report.StudyAtariNormalization, nil, func(string, string, uint64) float64 { return 1 })
	r, err = report.Open(dir, "test")
	require.NoError(t, err)
	for _, draw := range figs {
		fig, err := draw(r)
		require.NoError(t, err)
		assert.Contains(t, drawnStrings(fig.Drawer), "best T-BPTT", fig.Name)
		assert.Contains(t, fig.Caption, "Reference: on each game the T-BPTT group with the lowest mean final error among tbptt/15:2, tbptt/5:7", fig.Name)
	}
}

// The y labels of the multi-panel Atari figures (Figs. 11 and 13) fit
// beside their panels: each line of a label is shorter than 80% of a
// panel's height (one-line labels ran off the top and bottom).
func TestAtariPanelLabelsFit(t *testing.T) {
	dir := t.TempDir()
	writeAtariMedium(t, dir)
	r, err := report.Open(dir, report.AtariClaimsScale)
	require.NoError(t, err)
	for _, build := range []func(*report.Results) (report.Figure, error){report.AtariCapacity, report.AtariNormalization} {
		fig, err := build(r)
		require.NoError(t, err)
		g := fig.Drawer.(*plots.Grid)
		_, h := g.Size()
		for _, p := range g.Panels {
			for _, line := range strings.Split(p.Y.Label.Text, "\n") {
				w := p.Y.Label.TextStyle.Width(line)
				assert.Less(t, float64(w), 0.8*float64(h)/float64(g.Rows), "%s: y label line %q", fig.Name, line)
			}
		}
	}
}

// TestAtariCurvesMean: the mean-over-games panel of atari-normalized-curves
// is, at the last curve point, the mean over the games of CCN's mean error
// over the reference T-BPTT's (normalized.csv's) mean error, computed here
// from the runs' curve.csv files.
func TestAtariCurvesMean(t *testing.T) {
	dir := fullResults(t)
	r, err := report.Open(dir, "")
	require.NoError(t, err)
	res, err := sweep.Collect(dir)
	require.NoError(t, err)
	lastMean := func(study, group string) float64 {
		g, err := r.Group("", study, group)
		require.NoError(t, err)
		sum := 0.0
		for _, run := range g.Runs {
			_, errs, err := experiments.ReadCurve(filepath.Join(run.Dir, experiments.CurveFile))
			require.NoError(t, err)
			sum += errs[len(errs)-1]
		}
		return sum / float64(len(g.Runs))
	}
	sum, games := 0.0, 0
	for _, n := range res.Normalize() {
		if n.Study != report.StudyAtariMain || n.Family != report.GroupCCN || n.Env == sweep.MeanEnv {
			continue
		}
		study, group, ok := strings.Cut(n.Reference, "/")
		require.True(t, ok, n.Env)
		sum += lastMean(report.StudyAtariMain, report.GroupCCN+"@"+n.Env) / lastMean(study, group)
		games++
	}
	require.Equal(t, 2, games)
	f, err := report.AtariCurves(r)
	require.NoError(t, err)
	assert.Contains(t, f.Caption, fmt.Sprintf("Mean over the games at the last point: CCN %.3g at ", sum/float64(games)))
}
