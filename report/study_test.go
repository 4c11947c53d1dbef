package report_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"

	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
	"github.com/ccn-go/ccn/sweep"
)

const myStudy = "testdata/mystudy.yaml"

// studyResults writes mystudy at the test scale (the file's own scale
// "test" equals reporttest.Tiny) up to stage.
func studyResults(t *testing.T, stage reporttest.Stage) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, reporttest.WriteStudy(dir, "testdata", "mystudy", reporttest.Tiny(), stage))
	return dir
}

func TestRenderStudy(t *testing.T) {
	dir := studyResults(t, reporttest.Complete)
	out := filepath.Join(t.TempDir(), "figs")
	var log bytes.Buffer
	rep, err := report.RenderStudy(myStudy, dir, "test", out, &log)
	require.NoError(t, err)
	var drawn []string
	for _, f := range rep.Drawn {
		drawn = append(drawn, f.Name)
		for _, ext := range []string{".png", ".pdf"} {
			_, err := os.Stat(filepath.Join(out, f.Name+ext))
			assert.NoError(t, err)
		}
		assert.Contains(t, f.Caption, myStudy, "captions name the experiment file")
	}
	assert.Equal(t, []string{"mystudy-curves", "mystudy-final", "mystudy-sensitivity-step-size"}, drawn)
	require.Len(t, rep.Skipped, 1)
	assert.Equal(t, "mystudy-sensitivity-epsilon", rep.Skipped[0].Name)
	assert.Contains(t, rep.Skipped[0].Reason, "two or more values of epsilon")
	assert.Contains(t, log.String(), "skipped mystudy-sensitivity-epsilon")
	captions, err := os.ReadFile(filepath.Join(out, report.CaptionsFile))
	require.NoError(t, err)
	assert.Contains(t, string(captions), "mystudy-final: ")
}

// TestStudyFinalSorted: the final-error summary lists the groups lowest
// mean first, the means read from each final run's summary.json.
func TestStudyFinalSorted(t *testing.T) {
	dir := studyResults(t, reporttest.Complete)
	r, err := report.Open(dir, "test")
	require.NoError(t, err)
	st, err := sweep.Load(myStudy)
	require.NoError(t, err)
	means := map[string]float64{}
	for _, name := range []string{"ccn", "columnar", "tbptt-k5"} {
		g, err := r.Group("t", "mystudy", name)
		require.NoError(t, err)
		sum := 0.0
		for _, run := range g.Runs {
			sum += run.Summary.FinalError
		}
		means[name] = sum / float64(len(g.Runs))
	}
	want := []string{"ccn", "columnar", "tbptt-k5"}
	sort.SliceStable(want, func(i, j int) bool { return means[want[i]] < means[want[j]] })

	var final report.Figure
	for _, b := range report.StudyBuilders(r, st, myStudy) {
		if b.Name == "mystudy-final" {
			final, err = b.Build()
			require.NoError(t, err)
		}
	}
	p, ok := final.Drawer.(*plot.Plot)
	require.True(t, ok)
	var got []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" {
			got = append(got, tk.Label)
		}
	}
	assert.Equal(t, want, got)
	assert.Contains(t, p.Title.Text, "test scale, 400 steps")
}

// TestRenderStudyScaleAndMissing: the scale must be one the file defines, and
// every hint names only such a scale and the file itself.
func TestRenderStudyScaleAndMissing(t *testing.T) {
	empty := t.TempDir()
	out := filepath.Join(t.TempDir(), "figs")

	_, err := report.RenderStudy(myStudy, empty, "", out, &bytes.Buffer{})
	require.ErrorIs(t, err, report.ErrScale)
	assert.Contains(t, err.Error(), "defines the scales long, test: choose one with --scale")

	_, err = report.RenderStudy(myStudy, empty, "quick", out, &bytes.Buffer{})
	require.ErrorIs(t, err, report.ErrScale)
	assert.Contains(t, err.Error(), `defines no scale "quick" (it has long, test)`)

	_, err = report.RenderStudy(filepath.Join(empty, "absent.yaml"), empty, "test", out, &bytes.Buffer{})
	require.ErrorIs(t, err, sweep.ErrInvalid)

	// Results of another study only: every figure is missing, with the
	// command that makes it.
	var log bytes.Buffer
	rep, err := report.RenderStudy(myStudy, empty, "long", out, &log)
	require.NoError(t, err)
	assert.Empty(t, rep.Drawn)
	require.NotEmpty(t, rep.Skipped)
	for _, s := range rep.Skipped {
		assert.Contains(t, s.Reason, "run: ccn sweep "+myStudy+" --scale long --out "+empty, s.Name)
	}
	_, err = os.Stat(filepath.Join(out, report.CaptionsFile))
	assert.True(t, errors.Is(err, os.ErrNotExist), "nothing drawn, no captions")
	_, err = os.Stat(out)
	assert.True(t, errors.Is(err, os.ErrNotExist), "nothing drawn, no folder")

	// Sweep runs only (final seed 2 never ran): every figure is drawn from
	// the runs there are, and its caption says which are missing.
	dir := studyResults(t, reporttest.SweepOnly)
	rep, err = report.RenderStudy(myStudy, dir, "test", out, &bytes.Buffer{})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Drawn)
	assert.Equal(t, "mystudy-curves", rep.Drawn[0].Name)
	assert.Contains(t, rep.Drawn[0].Caption, "2 of 3 seeds (1 missing)")
}

// TestRenderDrawsStudiesWithoutFigures: Render draws a study that no figure
// of its own reads with the study figures, into a folder named after it.
func TestRenderDrawsStudiesWithoutFigures(t *testing.T) {
	dir := studyResults(t, reporttest.Complete)
	out := filepath.Join(t.TempDir(), "figs")
	rep, err := report.Render(dir, out, report.Options{Scale: "test", StreamSteps: 200}, &bytes.Buffer{})
	require.NoError(t, err)
	var study []string
	for _, f := range rep.Drawn {
		if filepath.Dir(f.Name) == "mystudy" {
			study = append(study, f.Name)
			_, err := os.Stat(filepath.Join(out, f.Name+".png"))
			assert.NoError(t, err)
			assert.Contains(t, f.Caption, filepath.Join("experiments", "configs", "mystudy.yaml"), "the caption names the study's file")
		}
	}
	assert.Equal(t, []string{"mystudy/mystudy-curves", "mystudy/mystudy-final", "mystudy/mystudy-sensitivity-step-size"}, study)
	captions, err := os.ReadFile(filepath.Join(out, "mystudy", report.CaptionsFile))
	require.NoError(t, err)
	assert.Contains(t, string(captions), "mystudy-final: ")
	assert.True(t, slices.ContainsFunc(rep.Skipped, func(s report.Skip) bool { return s.Name == "mystudy/mystudy-sensitivity-epsilon" }),
		"skips are named in the study's folder too")
	assert.Equal(t, []string{"mystudy"}, report.Unfigured([]string{"main-comparison", "mystudy"}, report.Builders(nil, report.Options{})))
}
