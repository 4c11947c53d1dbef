package sweep

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

// compactFiles are the files of a run directory that the committed results
// keep (scripts/paper-sweep.sh): the summary, which marks the run complete and
// holds its final error, and the learning curve, which collect and the
// figures read. predictions.csv is left out except for the runs of Figure 6.
var compactFiles = []string{experiments.SummaryFile, experiments.CurveFile}

// compactCopy copies the plans and the compact files of every complete run
// from src to dst, as a fresh machine would receive them from the repository.
func compactCopy(t *testing.T, src, dst string) {
	t.Helper()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(to), 0o755))
		require.NoError(t, os.WriteFile(to, b, 0o644))
	}
	plans, err := filepath.Glob(filepath.Join(src, PlansDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, plans)
	for _, p := range plans {
		copyFile(p, filepath.Join(dst, PlansDir, filepath.Base(p)))
	}
	runs, err := os.ReadDir(filepath.Join(src, RunsDir))
	require.NoError(t, err)
	for _, r := range runs {
		from := filepath.Join(src, RunsDir, r.Name())
		if _, err := os.Stat(filepath.Join(from, experiments.SummaryFile)); err != nil {
			continue
		}
		for _, f := range compactFiles {
			copyFile(filepath.Join(from, f), filepath.Join(dst, RunsDir, r.Name(), f))
		}
	}
}

// tables writes collect's three tables for out into a temporary directory
// and returns their contents by name.
func tables(t *testing.T, out string) map[string][]byte {
	t.Helper()
	res, err := Collect(out)
	require.NoError(t, err)
	dir := t.TempDir()
	paths, err := res.WriteFiles(dir)
	require.NoError(t, err)
	got := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		got[filepath.Base(p)] = b
	}
	return got
}

// TestCompactResultsResume checks the committed form of a results directory:
// plans plus summary.json and curve.csv per complete run (no predictions.csv,
// no locks) is enough for a sweep on a fresh machine to skip every finished
// run and for collect to write the same tables as from the full directory.
func TestCompactResultsResume(t *testing.T) {
	s, err := Parse([]byte(`
name: compact
groups:
  - name: ccn
    config: {method: ccn, features: 2, features-per-stage: 1}
    grid: {step-size: [1.0e-3, 3.0e-4]}
  - name: columnar
    config: {method: columnar, features: 2}
scales:
  s:
    steps: 300
    sweep-seeds: 0-1
    final-seeds: 100-101
    set: {window: 100, log-every: 100}
`))
	require.NoError(t, err)
	plan, err := s.Plan("s")
	require.NoError(t, err)

	full := t.TempDir()
	// Real runs (predictions.csv written), ungated: what is tested is the
	// files, and TestPoolGates the gate.
	rep, err := Pool{Workers: 2, NoGate: true}.Execute(context.Background(), plan, full)
	require.NoError(t, err)
	require.Equal(t, 2*2+2+2, rep.Ran)
	preds, err := filepath.Glob(filepath.Join(full, RunsDir, "*", experiments.PredictionsFile))
	require.NoError(t, err)
	require.Len(t, preds, rep.Ran, "the full directory has what the compact one leaves out")

	fresh := t.TempDir()
	compactCopy(t, full, fresh)
	filepath.WalkDir(fresh, func(path string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		assert.NotEqual(t, experiments.PredictionsFile, d.Name())
		return nil
	})

	f := newFakeRunner()
	rep, err = Pool{Workers: 2, Run: f.run}.Execute(context.Background(), plan, fresh)
	require.NoError(t, err)
	assert.Equal(t, 0, rep.Ran, "a finished run is never recomputed")
	assert.Equal(t, 0, f.total())
	assert.Equal(t, 2*2+2+2, rep.Found)

	want := tables(t, full)
	got := tables(t, fresh)
	require.Len(t, got, 3)
	for name, b := range want {
		assert.True(t, bytes.Equal(b, got[name]), "%s differs between the full and the compact directory", name)
	}

	// Teeth: without curve.csv collect cannot write the curves, and without
	// summary.json a run is computed again.
	bare := t.TempDir()
	compactCopy(t, full, bare)
	runs, err := filepath.Glob(filepath.Join(bare, RunsDir, "*"))
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(runs[0], experiments.CurveFile)))
	res, err := Collect(bare)
	require.NoError(t, err)
	assert.Error(t, res.WriteCurves(new(bytes.Buffer)), "collect needs every complete run's curve")
	require.NoError(t, os.Remove(filepath.Join(runs[1], experiments.SummaryFile)))
	f = newFakeRunner()
	rep, err = Pool{Workers: 1, Run: f.run}.Execute(context.Background(), plan, bare)
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Ran, "a run without its summary is pending")
}
