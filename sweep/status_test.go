package sweep

import (
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
// the estimate written out by hand; the pending finals at the speed of
// their own candidate.
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

	// Every runnable run done; then the times: the sweep runs of the
	// candidate ccn selects at 2 ms per step (wall) and those of its other
	// candidates at 8 ms, those of tbptt at 1 ms (CPU; 5 ms wall);
	// columnar's finals without a time.
	tasks, _ := Runnable(p, out, 0)
	f := newFakeRunner()
	summaries := map[string]experiments.Summary{}
	for _, tk := range tasks {
		s, err := f.run(t.Context(), tk.Config, RunDir(out, tk.ID))
		require.NoError(t, err)
		summaries[tk.ID] = s
	}
	ccnBest, ok := p.Best(0, cachedLook(out, 0))
	require.True(t, ok)
	require.Equal(t, "ccn", p.Groups[0].Name)
	for _, tk := range tasks {
		s := summaries[tk.ID]
		switch p.Groups[tk.Group].Name {
		case "ccn": // wall time only, as summaries before cpu_seconds
			s.WallSeconds = 8e-3 * float64(s.Steps)
			if tk.Candidate == ccnBest {
				s.WallSeconds = 2e-3 * float64(s.Steps)
			}
		case "tbptt": // CPU time, preferred to the (longer) wall time
			s.WallSeconds = 5e-3 * float64(s.Steps)
			s.CPUSeconds = 1e-3 * float64(s.Steps)
		}
		writeSummary(t, RunDir(out, tk.ID), s)
	}
	st = StatusOf(p, out, 0)
	assert.Equal(t, StageCount{Done: 10}, st.Sweep)
	assert.Equal(t, StageCount{Done: 4, Pending: 4}, st.Final, "seeds 0-1 of the selected ccn and tbptt are sweep runs")
	assert.Zero(t, st.Waiting)
	assert.Equal(t, int64(4000), st.Steps)
	assert.Zero(t, st.Unmeasured)
	assert.InDelta(t, 2000*2e-3+2000*1e-3, st.Seconds, 1e-9,
		"each final at its own candidate's speed, not ccn's average over its candidates (6 ms)")

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

// TestStatusOfPrefersRunsOfTheSameLength estimates final runs longer than
// the sweep's (final-steps) at the speed of the candidate's complete final
// runs once there is one, and before that at the speed of its sweep runs.
func TestStatusOfPrefersRunsOfTheSameLength(t *testing.T) {
	p := planOf(t, `
name: long-finals
groups:
  - name: tbptt
    config: {method: tbptt, hidden: 2, truncation: 2}
    grid: {step-size: [1.0e-3, 1.0e-2]}
scales:
  s:
    steps: 1000
    final-steps: 3000
    sweep-seeds: 0-1
    final-seeds: 0-2
    set: {window: 100, log-every: 500}
`)
	out := t.TempDir()
	f := newFakeRunner()
	for _, tk := range p.SweepTasks(0) {
		finishAt(t, f, out, tk, 4e-3)
	}
	st := StatusOf(p, out, 0)
	require.Equal(t, StageCount{Pending: 3}, st.Final)
	assert.InDelta(t, 3*3000*4e-3, st.Seconds, 1e-9, "no final done: the sweep runs' speed")

	tasks, _ := Runnable(p, out, 0)
	require.Len(t, tasks, 3)
	finishAt(t, f, out, tasks[0], 1e-3)
	st = StatusOf(p, out, 0)
	require.Equal(t, StageCount{Done: 1, Pending: 2}, st.Final)
	assert.InDelta(t, 2*3000*1e-3, st.Seconds, 1e-9, "the finals at the speed of the final done, not of all the candidate's runs")
}

// TestStatusOfBorrowsTheSameLearnersSpeed estimates a group without a
// complete run at the speed of the same learner in another group (here the
// same T-BPTT at another inter-stimulus interval and step size), and leaves
// a group of another learner (more hidden units) unmeasured.
func TestStatusOfBorrowsTheSameLearnersSpeed(t *testing.T) {
	p := planOf(t, `
name: borrowed-speeds
groups:
  - name: short
    config: {method: tbptt, hidden: 2, truncation: 2, isi-min: 8, isi-max: 12, iti-min: 27, iti-max: 40}
    grid: {step-size: [1.0e-3, 1.0e-2]}
  - name: long
    config: {method: tbptt, hidden: 2, truncation: 2, isi-min: 48, isi-max: 72, iti-min: 160, iti-max: 240}
    grid: {step-size: [1.0e-3, 1.0e-2]}
  - name: wider
    config: {method: tbptt, hidden: 3, truncation: 2}
    grid: {step-size: [1.0e-3, 1.0e-2]}
scales:
  s:
    steps: 1000
    final-steps: 3000
    sweep-seeds: 0-1
    final-seeds: 0
    set: {window: 100, log-every: 500}
`)
	out := t.TempDir()
	f := newFakeRunner()
	for _, tk := range p.SweepTasks(0) {
		finishAt(t, f, out, tk, 2e-3)
	}
	st := StatusOf(p, out, 0)
	require.Equal(t, StageCount{Done: 4, Pending: 8}, st.Sweep)
	require.Equal(t, int64(3000+(4*1000+3000)*2), st.Steps, "short's final, long's and wider's sweep and final runs")
	assert.InDelta(t, (3000+4*1000+3000)*2e-3, st.Seconds, 1e-9, "short's final and all of long at short's speed")
	assert.Equal(t, int64(4*1000+3000), st.Unmeasured, "wider: another learner, no speed of its own")
}

// finishAt completes task tk in out with f, recording a CPU time of perStep
// seconds a step.
func finishAt(t *testing.T, f *fakeRunner, out string, tk Task, perStep float64) {
	t.Helper()
	dir := RunDir(out, tk.ID)
	s, err := f.run(t.Context(), tk.Config, dir)
	require.NoError(t, err)
	s.CPUSeconds = perStep * float64(s.Steps)
	writeSummary(t, dir, s)
}
