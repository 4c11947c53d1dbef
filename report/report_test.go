package report_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
	"github.com/ccn-go/ccn/sweep"
)

const configs = "../experiments/configs"

// full is a results directory with every study complete at the tiny scale,
// written once for the tests that only read it.
var full struct {
	once sync.Once
	dir  string
	err  error
}

func fullResults(t *testing.T) string {
	t.Helper()
	full.once.Do(func() {
		full.dir, full.err = os.MkdirTemp("", "figures-full-")
		if full.err == nil {
			full.err = reporttest.WriteAll(full.dir, configs)
		}
	})
	require.NoError(t, full.err)
	return full.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if full.dir != "" {
		os.RemoveAll(full.dir)
	}
	os.Exit(code)
}

// pngSize returns the pixel size of a PNG file.
func pngSize(t *testing.T, path string) (w, h int) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	require.NoError(t, err, path)
	return cfg.Width, cfg.Height
}

func TestRenderEveryFigure(t *testing.T) {
	dir := fullResults(t)
	out := filepath.Join(t.TempDir(), "figs")
	var log bytes.Buffer
	rep, err := report.Render(dir, out, report.Options{}, &log)
	require.NoError(t, err)
	assert.Empty(t, rep.Skipped)
	assert.Empty(t, log.String())
	assert.Equal(t, reporttest.Scale, rep.Scale)

	// Size in pixels at 300 dpi: 6×4 in by default, the stream 7×5 in, the
	// curves-and-summary figures 12×4 in, the four-panel ablations 12×8 in,
	// the Atari normalization ablation two 6×3 in panels stacked,
	// the gradient-bias grid its own.
	want := map[string][2]int{
		report.NameStream:             {2100, 1500},
		report.NameFrames:             {2400, 3600},
		report.NameLearningCurves:     {1800, 1200},
		report.NameComputeMatched:     {3600, 1200},
		report.NameTruncationH10:      {3600, 1200},
		report.NamePredictions:        {1800, 1200},
		report.NameNormalization:      {1800, 1200},
		report.NameAblations:          {3600, 2400},
		"gradient_bias":               {0, 0},
		"gradient_estimators":         {0, 0},
		report.NameOnlineGradients:    {3600, 1200},
		"cost":                        {1800, 1200},
		report.NameAtariNormalized:    {1800, 1200},
		report.NameAtariAverage:       {1800, 1200},
		report.NameAtariPredictions:   {0, 0},
		report.NameAtariCurves:        {0, 0},
		report.NameAtariCapacity:      {0, 0},
		report.NameAtariNormalization: {1800, 1800},
		report.NameDependency:         {1800, 1200},
		report.NameDependencyCurves:   {3600, 2400},

		report.NameAutoFreezing:            {1800, 1200},
		report.NameAutoFreezingStages:      {3600, 1200},
		report.NameAutoFreezingAtari:       {1800, 1200},
		report.NameAutoFreezingAtariStages: {3600, 1200},
	}
	var drawn []string
	for _, f := range rep.Drawn {
		drawn = append(drawn, f.Name)
		w, h := pngSize(t, filepath.Join(out, f.Name+".png"))
		if size := want[f.Name]; size[0] > 0 {
			assert.Equal(t, size, [2]int{w, h}, f.Name)
		} else {
			assert.Greater(t, w*h, 1000*1000, f.Name)
		}
		pdf, err := os.ReadFile(filepath.Join(out, f.Name+".pdf"))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF")), f.Name)
		assert.Greater(t, len(pdf), 10_000, "%s: a PDF with embedded fonts", f.Name)
		assert.NotEmpty(t, f.Caption, f.Name)
	}
	assert.ElementsMatch(t, mapsKeys(want), drawn)

	captions, err := os.ReadFile(filepath.Join(out, report.CaptionsFile))
	require.NoError(t, err)
	text := string(captions)
	for _, name := range drawn {
		assert.Contains(t, text, name+": ", "captions name every figure")
	}
	learning := captionOf(t, text, report.NameLearningCurves)
	assert.Contains(t, learning, "Scale test, 400 steps per run, error averaged over the previous 100 steps; final seeds 0-2, sweep seeds 0-1")
	assert.Contains(t, captionOf(t, text, report.NameAblations), "final seeds 0-2;", "no sweep seeds where nothing is tuned")
	assert.Contains(t, learning, "CCN: 3 seeds, selected epsilon=0.001 step-size=")
	assert.Contains(t, learning, "T-BPTT k=15, H=4: 3 seeds")
	assert.Contains(t, captionOf(t, text, report.NameComputeMatched), "Dotted black line: CCN's final error")
	for _, name := range []string{report.NameLearningCurves, report.NameComputeMatched, report.NameTruncationH10,
		report.NameNormalization, report.NameAblations} {
		assert.Contains(t, captionOf(t, text, name), "Dashed grey line: the error of the best constant prediction, ",
			"%s: every error figure draws the best constant prediction", name)
	}
	assert.NotContains(t, captionOf(t, text, report.NameAblations), "selected default", "nothing is tuned in the ablations")
}

// withOptionalAbsent adds to skipped the Atari figures and the
// dependency-length study's, skipped for want of their studies.
func withOptionalAbsent(skipped map[string]string) map[string]string {
	for name, study := range map[string]string{
		report.NameAtariNormalized:    report.StudyAtariMain,
		report.NameAtariAverage:       report.StudyAtariMain,
		report.NameAtariPredictions:   report.StudyAtariMain,
		report.NameAtariCurves:        report.StudyAtariMain,
		report.NameAtariCapacity:      report.StudyAtariCapacity,
		report.NameAtariNormalization: report.StudyAtariNormalization,
		report.NameDependency:         report.StudyDependency,
		report.NameDependencyCurves:   report.StudyDependency,

		report.NameAutoFreezing:            report.StudyAutoFreezing,
		report.NameAutoFreezingStages:      report.StudyAutoFreezing,
		report.NameAutoFreezingAtari:       report.StudyAutoFreezingAtari,
		report.NameAutoFreezingAtariStages: report.StudyAutoFreezingAtari,
	} {
		skipped[name] = "study " + study + " not in"
	}
	return skipped
}

func mapsKeys(m map[string][2]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// captionOf returns the caption line of figure name.
func captionOf(t *testing.T, captions, name string) string {
	t.Helper()
	for _, line := range strings.Split(captions, "\n") {
		if strings.HasPrefix(line, name+": ") {
			return line
		}
	}
	t.Fatalf("no caption for %s", name)
	return ""
}

// readCurveCSV reads a curve.csv with encoding/csv, independently of the
// package's reader.
func readCurveCSV(t *testing.T, path string) map[float64]float64 {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"step", "error"}, rows[0])
	out := map[float64]float64{}
	for _, r := range rows[1:] {
		s, err := strconv.ParseFloat(r[0], 64)
		require.NoError(t, err)
		e, err := strconv.ParseFloat(r[1], 64)
		require.NoError(t, err)
		out[s] = e
	}
	return out
}

func TestGroupIsTheSelectedConfigurationOverTheFinalSeeds(t *testing.T) {
	dir := fullResults(t)
	r, err := report.Open(dir, "")
	require.NoError(t, err)
	studies := slices.Clone(reporttest.AllStudies)
	for s := range reporttest.AtariStudies {
		studies = append(studies, s)
	}
	studies = append(studies, report.StudyAutoFreezingAtari) // written by WriteAll at its own scale
	assert.ElementsMatch(t, studies, r.Studies())

	plans, err := sweep.LoadPlans(dir)
	require.NoError(t, err)
	var main *sweep.Plan
	for i := range plans {
		if plans[i].Study == report.StudyMain {
			main = &plans[i]
		}
	}
	require.NotNil(t, main)
	g := slicesIndex(main, report.GroupCCN)
	best, ok := main.Best(g, func(id string) sweep.Outcome { return sweep.Look(dir, id, sweep.DefaultMaxAttempts) })
	require.True(t, ok)

	grp, err := r.Group("test", report.StudyMain, report.GroupCCN)
	require.NoError(t, err)
	assert.Equal(t, main.Groups[g].Candidates[best].Label, grp.Candidate)
	require.Len(t, grp.Runs, 3)
	assert.Equal(t, 3, grp.Seeds)
	for i, run := range grp.Runs {
		assert.Equal(t, uint64(i), run.Summary.Seed, "final seeds in order")
		assert.Equal(t, main.Groups[g].Candidates[best].Config.Config().StepSize, run.Summary.Config.StepSize)
	}
	assert.Equal(t, "3 seeds", grp.SeedsText())

	// The curve is the mean ± s.e. of the three runs' curves at every step.
	c, err := grp.Curve("CCN", string(arch.MethodCCN))
	require.NoError(t, err)
	assert.Equal(t, []float64{50, 100, 150, 200, 250, 300, 350, 400}, c.Steps)
	assert.Equal(t, 3, c.Seeds)
	runs := make([]map[float64]float64, 3)
	for i, run := range grp.Runs {
		runs[i] = readCurveCSV(t, filepath.Join(run.Dir, experiments.CurveFile))
	}
	for i, s := range c.Steps {
		a, b, d := runs[0][s], runs[1][s], runs[2][s]
		mean := (a + b + d) / 3
		sd := math.Sqrt(((a-mean)*(a-mean) + (b-mean)*(b-mean) + (d-mean)*(d-mean)) / 2)
		assert.InDelta(t, mean, c.Mean[i], 1e-15*mean, "step %v", s)
		assert.InDelta(t, sd/math.Sqrt(3), c.StdErr[i], 1e-12*mean, "step %v", s)
		assert.Greater(t, c.StdErr[i], 0.0, "different seeds, different errors")
	}
}

func slicesIndex(p *sweep.Plan, name string) int {
	for i, g := range p.Groups {
		if g.Name == name {
			return i
		}
	}
	return -1
}

func TestSeedsText(t *testing.T) {
	tests := []struct {
		g    report.Group
		want string
	}{
		{report.Group{Runs: make([]report.Run, 1), Seeds: 1}, "1 seed"},
		{report.Group{Runs: make([]report.Run, 5), Seeds: 5}, "5 seeds"},
		{report.Group{Runs: make([]report.Run, 3), Seeds: 5, Diverged: 2}, "3 of 5 seeds (2 diverged)"},
		{report.Group{Runs: make([]report.Run, 2), Seeds: 5, Diverged: 1, Missing: 2}, "2 of 5 seeds (1 diverged, 2 missing)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.g.SeedsText())
	}
}

func TestMissingDataSaysWhatIsMissing(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		drawn []string
		// skipped maps a figure to a part of its message.
		skipped map[string]string
		// captions is a part of captions.txt.
		captions string
	}{
		{
			name:  "no plans",
			setup: func(t *testing.T, dir string) {},
			drawn: []string{report.NameStream, report.NameFrames},
			skipped: withOptionalAbsent(map[string]string{
				report.NameLearningCurves:  "study main-comparison not in",
				report.NameComputeMatched:  "study compute-matched-tbptt not in",
				report.NameTruncationH10:   "study truncation-h10 not in",
				report.NamePredictions:     "study main-comparison not in",
				report.NameNormalization:   "study normalization-ablation not in",
				report.NameAblations:       "study ccn-features-per-stage not in",
				report.NameOnlineGradients: "study online-gradients not in",
				"gradient_bias":            "gradient_bias.csv not found (run: ccn truncation --out",
				"gradient_estimators":      "gradient_bias.csv not found (run: ccn truncation --out",
				"cost":                     "cost.csv not found (run: ccn truncation --out",
			}),
		},
		{
			name: "main comparison only",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, reporttest.WriteStudy(dir, configs, report.StudyMain, reporttest.Tiny(), reporttest.Complete))
			},
			drawn: []string{report.NameStream, report.NameFrames, report.NameLearningCurves, report.NamePredictions},
			skipped: withOptionalAbsent(map[string]string{
				report.NameComputeMatched:  "study compute-matched-tbptt not in",
				report.NameTruncationH10:   "run: ccn sweep experiments/configs/truncation-h10.yaml --scale test --out",
				report.NameNormalization:   "study normalization-ablation not in",
				report.NameAblations:       "study ccn-features-per-stage not in",
				report.NameOnlineGradients: "study online-gradients not in",
				"gradient_bias":            "not found",
				"gradient_estimators":      "not found",
				"cost":                     "not found",
			}),
		},
		{
			name: "sweep stage not run",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, reporttest.WriteStudy(dir, configs, report.StudyMain, reporttest.Tiny(), reporttest.PlanOnly))
				require.NoError(t, reporttest.WriteTruncation(filepath.Join(dir, "truncation")))
			},
			drawn: []string{report.NameStream, report.NameFrames, "gradient_bias", "gradient_estimators", "cost"},
			skipped: withOptionalAbsent(map[string]string{
				report.NameLearningCurves:  "main-comparison/test group ccn: sweep stage not finished",
				report.NamePredictions:     "main-comparison/test group ccn: sweep stage not finished",
				report.NameComputeMatched:  "study compute-matched-tbptt not in",
				report.NameTruncationH10:   "study truncation-h10 not in",
				report.NameNormalization:   "study normalization-ablation not in",
				report.NameAblations:       "study ccn-features-per-stage not in",
				report.NameOnlineGradients: "study online-gradients not in",
			}),
		},
		{
			name: "final runs not run",
			setup: func(t *testing.T, dir string) {
				for _, s := range []string{report.StudyMain, report.StudyFeatures, report.StudySteps} {
					require.NoError(t, reporttest.WriteStudy(dir, configs, s, reporttest.Tiny(), reporttest.SweepOnly))
				}
			},
			// Final seeds 0 and 1 of the main comparison are its sweep runs:
			// its figures are drawn over 2 of 3 seeds.
			drawn: []string{report.NameStream, report.NameFrames, report.NameLearningCurves, report.NamePredictions},
			skipped: withOptionalAbsent(map[string]string{
				report.NameAblations: "ccn-features-per-stage/test group ccn/fps=1: none of 3 final runs complete (0 diverged, 3 pending or failed); " +
					"ccn-features-per-stage/test group ccn/fps=2: none of 3 final runs complete (0 diverged, 3 pending or failed); and 4 more groups",
				report.NameComputeMatched:  "study compute-matched-tbptt not in",
				report.NameTruncationH10:   "study truncation-h10 not in",
				report.NameNormalization:   "study normalization-ablation not in",
				report.NameOnlineGradients: "study online-gradients not in",
				"gradient_bias":            "not found",
				"gradient_estimators":      "not found",
				"cost":                     "not found",
			}),
			captions: "CCN: 2 of 3 seeds (1 missing), selected",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.setup(t, dir)
			out := filepath.Join(t.TempDir(), "figs")
			var log bytes.Buffer
			rep, err := report.Render(dir, out, report.Options{}, &log)
			require.NoError(t, err)
			var drawn []string
			for _, f := range rep.Drawn {
				drawn = append(drawn, f.Name)
			}
			assert.ElementsMatch(t, tt.drawn, drawn)
			require.Len(t, rep.Skipped, len(tt.skipped))
			lines := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
			require.Len(t, lines, len(tt.skipped), "one line per skipped figure:\n%s", log.String())
			for i, s := range rep.Skipped {
				want, ok := tt.skipped[s.Name]
				require.True(t, ok, "unexpected skip of %s: %s", s.Name, s.Reason)
				assert.Contains(t, s.Reason, want, s.Name)
				assert.Equal(t, fmt.Sprintf("skipped %s: missing %s", s.Name, s.Reason), lines[i])
				_, err := os.Stat(filepath.Join(out, s.Name+".png"))
				assert.True(t, os.IsNotExist(err), "no file for skipped %s", s.Name)
				assert.NotContains(t, s.Reason, "; study", "a missing study is named once")
			}
			if tt.captions != "" {
				captions, err := os.ReadFile(filepath.Join(out, report.CaptionsFile))
				require.NoError(t, err)
				assert.Contains(t, string(captions), tt.captions)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	_, err := report.Open(filepath.Join(t.TempDir(), "absent"), "")
	assert.ErrorIs(t, err, report.ErrNoResults)

	dir := t.TempDir()
	require.NoError(t, reporttest.WriteStudy(dir, configs, report.StudyNormalization, reporttest.Tiny(), reporttest.PlanOnly))
	_, err = report.Open(dir, "paper")
	assert.ErrorIs(t, err, report.ErrScale)
	assert.ErrorContains(t, err, `no plans at scale "paper" (it has test)`)

	s, err := sweep.Load(filepath.Join(configs, report.StudyNormalization+".yaml"))
	require.NoError(t, err)
	p, err := s.Plan("smoke")
	require.NoError(t, err)
	require.NoError(t, sweep.SavePlan(dir, p))
	_, err = report.Open(dir, "")
	assert.ErrorIs(t, err, report.ErrScale)
	assert.ErrorContains(t, err, "holds the scales smoke, test: choose one")
	r, err := report.Open(dir, "smoke")
	require.NoError(t, err)
	assert.Equal(t, []string{report.StudyNormalization}, r.Studies())
}

func TestStream(t *testing.T) {
	f, err := report.Stream(600, 0)
	require.NoError(t, err)
	assert.Equal(t, report.NameStream, f.Name)
	require.IsType(t, &plots.Grid{}, f.Drawer)
	assert.Len(t, f.Drawer.(*plots.Grid).Panels, 2, "the stimuli over the return")
	assert.Contains(t, f.Caption, "first 600 steps")
	assert.Contains(t, f.Caption, "ISI 24 to 36 steps")

	_, err = report.Stream(0, 0)
	var m *plots.MissingError
	assert.ErrorAs(t, err, &m)
}

func TestPredictionsUsesACommonSeed(t *testing.T) {
	r, err := report.Open(fullResults(t), "")
	require.NoError(t, err)
	f, err := report.Predictions(r, 150)
	require.NoError(t, err)
	assert.Contains(t, f.Caption, "over the last 150 steps of learning, final seed 0")
	// 400 steps kept, fewer than asked: all of them.
	f, err = report.Predictions(r, 5000)
	require.NoError(t, err)
	assert.Contains(t, f.Caption, "over the last 400 steps")
}

// TestBuildersDeclareTheStudiesTheyRead: each figure reads the plans of the
// studies its Builder names, and no other (Render draws the studies no
// Builder names with the study figures, so a missing name draws a study
// twice and a name too many leaves a study undrawn).
func TestBuildersDeclareTheStudiesTheyRead(t *testing.T) {
	r, err := report.Open(fullResults(t), "")
	require.NoError(t, err)
	for _, b := range report.Builders(r, report.Options{StreamSteps: 200}) {
		report.StudiesRead(r)
		_, err := b.Build()
		require.NoError(t, err, b.Name)
		want := slices.Clone(b.Studies)
		slices.Sort(want)
		assert.Equal(t, want, report.StudiesRead(r), b.Name)
	}
}
