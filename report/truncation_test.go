package report_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/report/reporttest"
	"github.com/ccn-go/ccn/truncation"
)

// TestRenderTruncation draws the truncation study's figures from its CSVs
// alone (what ccn truncation does after running the study): exactly the three
// figures and nothing else (no temporary files) land in out.
func TestRenderTruncation(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, reporttest.WriteTruncation(dir))
	out := filepath.Join(dir, "figs")
	require.NoError(t, os.Mkdir(out, 0o755))
	figs, err := report.RenderTruncation(dir, out)
	require.NoError(t, err)
	require.Len(t, figs, 3)
	assert.Equal(t, report.NameGradientBias, figs[0].Name)
	assert.Equal(t, report.NameGradientEstimators, figs[1].Name)
	assert.Equal(t, report.NameCost, figs[2].Name)
	assert.Contains(t, figs[0].Caption, "ISI band 24 to 36 steps", "the band comes from env's trace patterning defaults")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"cost.pdf", "cost.png", "gradient_bias.pdf", "gradient_bias.png",
		"gradient_estimators.pdf", "gradient_estimators.png"}, names)

	// The estimator figure's caption gives each H's numbers from the CSV
	// (reporttest: SnAp-1 0.3/H, UORO 1.5 ± 0.4, T-BPTT 1/(k+H)).
	c := figs[1].Caption
	assert.Contains(t, c, "H = 2: SnAp-1 0.15 (", c)
	assert.Contains(t, c, "UORO 1.5 ± 0.4", c)
	// H = 4: 1/(k+4) ≤ 0.075 first at k = 10 (0.0714), the row of 11·4·params ops.
	assert.Contains(t, c, "T-BPTT as accurate as SnAp-1 from k = 10 (", c)
	assert.Contains(t, c, "10 draws per trajectory", c)
}

// TestGradientEstimatorsMissingMethod: a CSV without one of the estimators
// for some H (an old or partial study) is missing data naming it.
func TestGradientEstimatorsMissingMethod(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, reporttest.WriteTruncation(dir))
	f, err := os.Open(filepath.Join(dir, truncation.BiasCSV))
	require.NoError(t, err)
	pts, err := truncation.ReadBiasCSV(f)
	f.Close()
	require.NoError(t, err)
	pts = slices.DeleteFunc(pts, func(p truncation.BiasPoint) bool { return p.Method == "uoro" && p.Hidden == 4 })
	w, err := os.Create(filepath.Join(dir, truncation.BiasCSV))
	require.NoError(t, err)
	require.NoError(t, truncation.WriteBiasCSV(w, pts))
	require.NoError(t, w.Close())
	_, err = report.RenderTruncation(dir, dir)
	var me *plots.MissingError
	require.True(t, errors.As(err, &me), "got %v", err)
	assert.Contains(t, me.What, "no uoro rows for H = 4")
}

// TestRenderTruncationErrors: a missing CSV is missing data naming the
// command that makes it; a malformed one is an error prefixed "report:".
func TestRenderTruncationErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := report.RenderTruncation(dir, dir)
	var me *plots.MissingError
	require.True(t, errors.As(err, &me), "got %v", err)
	assert.Contains(t, me.What, "ccn truncation --out "+dir)

	require.NoError(t, os.WriteFile(filepath.Join(dir, truncation.BiasCSV), []byte("not,a,header\n"), 0o644))
	_, err = report.RenderTruncation(dir, dir)
	require.Error(t, err)
	assert.False(t, errors.As(err, &me), "a malformed file is not missing data: %v", err)
	assert.True(t, strings.HasPrefix(err.Error(), "report: "), "error %q must name the package", err)
	entries, _ := os.ReadDir(dir)
	assert.False(t, slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".png") }),
		"nothing drawn from a bad file")
}
