package report_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
)

// TestErrorFiguresSayScaleAndBaseline: every error figure states its scale,
// run length and seeds in its title, and its caption gives the best constant
// prediction's error, which is checked against a direct two-pass variance of
// the returns of the same streams over the error window.
func TestErrorFiguresSayScaleAndBaseline(t *testing.T) {
	r, err := report.Open(fullResults(t), "")
	require.NoError(t, err)
	g, err := r.Group("test", report.StudyMain, report.GroupCCN)
	require.NoError(t, err)
	// The best constant's error over the last window of each run, mean over
	// the runs: every group of every figure at this scale runs the same
	// seeds on the same stream, so every figure draws the same value.
	cfg := g.Runs[0].Summary.Config
	mse := 0.0
	for _, run := range g.Runs {
		rc := run.Summary.Config
		e := rc.MustResolve().NewEnv()
		x := make([]float64, e.ObservationSize())
		rets := make([]float64, rc.Steps)
		for i := range rets {
			_, rets[i] = e.Next(x)
		}
		last := rets[rc.Steps-rc.Window:]
		mean := 0.0
		for _, v := range last {
			mean += v
		}
		mean /= float64(len(last))
		v := 0.0
		for _, r := range last {
			v += (r - mean) * (r - mean)
		}
		mse += v / float64(len(last))
	}
	mse /= float64(len(g.Runs))
	wantBase := fmt.Sprintf("best constant prediction, %.4g, the variance of the return over the last %d steps of each run, mean over %d seeds",
		mse, cfg.Window, len(g.Runs))
	wantTitle := fmt.Sprintf("%s scale, %d steps (mean ± s.e., 3 seeds)", reporttest.Scale, cfg.Steps)

	for _, build := range []func(*report.Results) (report.Figure, error){
		report.LearningCurves, report.ComputeMatched, report.TruncationH10, report.Normalization, report.Ablations,
	} {
		fig, err := build(r)
		require.NoError(t, err)
		assert.Contains(t, fig.Caption, wantBase, fig.Name)
		var title string
		switch d := fig.Drawer.(type) {
		case *plot.Plot:
			title = d.Title.Text
		case *plots.Grid:
			title = d.Title
			for _, p := range d.Panels {
				title += "\n" + p.Title.Text
			}
		}
		if !strings.Contains(title, wantTitle) {
			// Grids put the seeds on the panel of curves, scale and steps on top.
			assert.Contains(t, title, fmt.Sprintf("%s scale, %d steps", reporttest.Scale, cfg.Steps), fig.Name)
			assert.Contains(t, title, "(mean ± s.e., 3 seeds)", fig.Name)
		}
	}
}

// TestComparablePanelsShareY: the panels of a grid meant to be compared
// (curves beside their final errors, the four ablation panels) have one y
// range.
func TestComparablePanelsShareY(t *testing.T) {
	r, err := report.Open(fullResults(t), "")
	require.NoError(t, err)
	for _, build := range []func(*report.Results) (report.Figure, error){report.ComputeMatched, report.TruncationH10, report.Ablations} {
		fig, err := build(r)
		require.NoError(t, err)
		grid, ok := fig.Drawer.(*plots.Grid)
		require.True(t, ok, fig.Name)
		for _, p := range grid.Panels[1:] {
			assert.Equal(t, grid.Panels[0].Y.Min, p.Y.Min, fig.Name)
			assert.Equal(t, grid.Panels[0].Y.Max, p.Y.Max, fig.Name)
		}
	}
}
