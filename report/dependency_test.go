package report_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
)

var regenDependency = flag.Bool("regen-dependency", false, "rewrite testdata/dependency-length*_golden.png")

// dependencySmoke is the smoke scale of experiments/configs/dependency-length.yaml
// as `ccn sweep --scale smoke` wrote it, kept compact (plan, summary.json and
// curve.csv of every run), so that the figures drawn from it do not depend on
// the numerics of the build running the test.
const dependencySmoke = "testdata/dependency-smoke"

// TestDependencyLengthNormalizes: each point of the dependency-length
// figure is the mean over the selected configuration's final runs of
// final_error / return_variance, read here from the runs' summary.json
// files directly, and the grid of curves has a panel per ISI range.
func TestDependencyLengthNormalizes(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, reporttest.WriteStudy(dir, configs, report.StudyDependency, reporttest.DependencyTiny(), reporttest.Complete))
	r, err := report.Open(dir, reporttest.Scale)
	require.NoError(t, err)
	fig, err := report.DependencyLength(r)
	require.NoError(t, err)
	names, err := r.GroupNames(report.NameDependency, report.StudyDependency)
	require.NoError(t, err)
	require.Len(t, names, 11)
	for _, name := range names {
		g, err := r.Group(report.NameDependency, report.StudyDependency, name)
		require.NoError(t, err)
		var ratio, plain []float64
		for _, run := range g.Runs {
			var s struct {
				FinalError     float64 `json:"final_error"`
				ReturnVariance float64 `json:"return_variance"`
			}
			b, err := os.ReadFile(filepath.Join(run.Dir, "summary.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &s))
			require.Positive(t, s.ReturnVariance)
			ratio = append(ratio, s.FinalError/s.ReturnVariance)
			plain = append(plain, s.FinalError)
		}
		isi := strings.TrimPrefix(name[strings.Index(name, "/"):], "/isi=")
		assert.Contains(t, fig.Caption, fmt.Sprintf(" at ISI %s: %.3g ± ", isi, mean(ratio)), name)
		assert.NotContains(t, fig.Caption, fmt.Sprintf(" at ISI %s: %.3g ± ", isi, mean(plain)), "%s: the plain final error is not the point", name)
	}
	curves, err := report.DependencyCurves(r)
	require.NoError(t, err)
	g, ok := curves.Drawer.(*plots.Grid)
	require.True(t, ok)
	assert.Equal(t, [2]int{2, 2}, [2]int{g.Rows, g.Cols})
	for i, isi := range []string{"ISI 8-12, ITI 27-40", "ISI 24-36, ITI 80-120", "ISI 48-72, ITI 160-240", "ISI 96-144, ITI 320-480"} {
		assert.Equal(t, isi+" (mean ± s.e., 3 seeds)", g.Panels[i].Title.Text)
	}
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// assertGolden checks the rendered figure got against testdata/NAME_golden.png,
// first rewriting that file with got when regen is set (the test flag named
// flagName).
func assertGolden(t *testing.T, name string, got []byte, regen bool, flagName string) {
	t.Helper()
	path := filepath.Join("testdata", name+"_golden.png")
	if regen {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	same, err := cmpimg.Equal("png", got, want)
	require.NoError(t, err)
	assert.True(t, same, "%s differs from %s (regenerate with %s and look)", name, path, flagName)
}

// renderGolden draws fig at 96 dpi, a *plot.Plot as the one panel of a grid
// (legend outside, as saved).
func renderGolden(t *testing.T, fig plots.Drawer) []byte {
	t.Helper()
	if p, ok := fig.(*plot.Plot); ok {
		g := plots.NewGrid("", 1, 1, p)
		g.Width, g.Height = plots.DefaultWidth, plots.DefaultHeight
		fig = g
	}
	w, h := plots.DefaultWidth, plots.DefaultHeight
	if s, ok := fig.(plots.Sizer); ok {
		w, h = s.Size()
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))
	fig.Draw(draw.New(img))
	var buf bytes.Buffer
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// TestDependencyLengthGolden draws the two dependency-length figures from
// the committed smoke-scale results and compares them with
// testdata/NAME_golden.png pixel for pixel. After an intended change of the
// drawing, regenerate with
//
//	go test ./report -run TestDependencyLengthGolden -regen-dependency
//
// and look at the new images before committing them.
func TestDependencyLengthGolden(t *testing.T) {
	r, err := report.Open(dependencySmoke, "smoke")
	require.NoError(t, err)
	for _, b := range []struct {
		name string
		draw func(*report.Results) (report.Figure, error)
	}{{report.NameDependency, report.DependencyLength}, {report.NameDependencyCurves, report.DependencyCurves}} {
		t.Run(b.name, func(t *testing.T) {
			fig, err := b.draw(r)
			require.NoError(t, err)
			assertGolden(t, b.name, renderGolden(t, fig.Drawer), *regenDependency, "-regen-dependency")
		})
	}

	// Teeth: one final run's error changed by a tenth changes the figure.
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(dependencySmoke)))
	r2, err := report.Open(dir, "smoke")
	require.NoError(t, err)
	g, err := r2.Group(report.NameDependency, report.StudyDependency, "ccn/isi=96-144")
	require.NoError(t, err)
	path := filepath.Join(g.Runs[0].Dir, "summary.json")
	var s map[string]any
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &s))
	s["final_error"] = s["final_error"].(float64) * 1.1
	b, err = json.Marshal(s)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	r2, err = report.Open(dir, "smoke")
	require.NoError(t, err)
	fig, err := report.DependencyLength(r2)
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("testdata", report.NameDependency+"_golden.png"))
	require.NoError(t, err)
	same, err := cmpimg.Equal("png", renderGolden(t, fig.Drawer), want)
	require.NoError(t, err)
	assert.False(t, same, "a changed final error leaves the figure unchanged")
}
