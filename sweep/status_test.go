package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccn-go/ccn/experiments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatusOfCountsStagesAndTimeLeft follows fakePlan's runs (ccn: 3
// candidates, tbptt: 2, each over sweep seeds 0-1; columnar: 1 candidate, no
// sweep; final seeds 0-3 of 1,000 steps) through a directory, the counts and
// the estimate written out by hand.
func TestStatusOfCountsStagesAndTimeLeft(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()

	st := StatusOf(p, out, 0)
	assert.Equal(t, StageCount{Pending: 6 + 4}, st.Sweep)
	assert.Equal(t, StageCount{Pending: 4}, st.Final, "columnar's finals: settled without a sweep")
	assert.Equal(t, 2+2, st.Waiting, "final seeds 2 and 3 of ccn and of tbptt")
	assert.Equal(t, int64((10+4+4)*1000), st.Steps)
	assert.Equal(t, st.Steps, st.Unmeasured)
	assert.Zero(t, st.Seconds)

	// Every runnable run done, the sweep runs of ccn at 2 ms per step (wall)
	// and those of tbptt at 1 ms (CPU; 5 ms wall); columnar's finals without
	// a time.
	tasks, _ := Runnable(p, out, 0)
	f := newFakeRunner()
	for _, tk := range tasks {
		dir := RunDir(out, tk.ID)
		s, err := f.run(t.Context(), tk.Config, dir)
		require.NoError(t, err)
		switch p.Groups[tk.Group].Name {
		case "ccn": // wall time only, as summaries before cpu_seconds
			s.WallSeconds = 2e-3 * float64(s.Steps)
		case "tbptt": // CPU time, preferred to the (longer) wall time
			s.WallSeconds = 5e-3 * float64(s.Steps)
			s.CPUSeconds = 1e-3 * float64(s.Steps)
		}
		b, err := json.Marshal(s)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, experiments.SummaryFile), b, 0o644))
	}
	st = StatusOf(p, out, 0)
	assert.Equal(t, StageCount{Done: 10}, st.Sweep)
	assert.Equal(t, StageCount{Done: 4, Pending: 4}, st.Final, "seeds 0-1 of the selected ccn and tbptt are sweep runs")
	assert.Zero(t, st.Waiting)
	assert.Equal(t, int64(4000), st.Steps)
	assert.Zero(t, st.Unmeasured)
	assert.InDelta(t, 2000*2e-3+2000*1e-3, st.Seconds, 1e-9)

	// A final run that failed for good leaves the steps to compute.
	tasks, _ = Runnable(p, out, 0)
	require.Len(t, tasks, 4)
	dir := RunDir(out, tasks[0].ID)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, FailedFile), []byte(`{"attempts": 2, "error": "x"}`), 0o644))
	st = StatusOf(p, out, 2)
	assert.Equal(t, StageCount{Done: 4, Failed: 1, Pending: 3}, st.Final)
	assert.Equal(t, int64(3000), st.Steps)
	assert.Equal(t, StageCount{Done: 4, Pending: 4}, StatusOf(p, out, 3).Final, "attempts left: still pending")
}
