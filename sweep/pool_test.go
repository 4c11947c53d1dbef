package sweep

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

// fakePlan is a plan of two tuned groups and one single-candidate group.
const fakeStudy = `
name: fake
groups:
  - name: ccn
    config: {method: ccn, features: 2, features-per-stage: 1}
    grid: {step-size: [1.0e-3, 3.0e-4, 1.0e-2]}
  - name: tbptt
    config: {method: tbptt, hidden: 2, truncation: 2}
    grid: {step-size: [1.0e-3, 1.0e-2]}
  - name: columnar
    config: {method: columnar, features: 2}
scales:
  s:
    steps: 1000
    sweep-seeds: 0-1
    final-seeds: 0-3
    set: {window: 100, log-every: 500}
`

func fakePlan(t *testing.T) Plan { return planOf(t, fakeStudy) }

// planOf is the plan of the study src at its scale "s".
func planOf(t *testing.T, src string) Plan {
	t.Helper()
	s, err := Parse([]byte(src))
	require.NoError(t, err)
	p, err := s.Plan("s")
	require.NoError(t, err)
	return p
}

func TestIDNamesTheResolvedConfig(t *testing.T) {
	c := experiments.RunConfig{Method: "ccn", Seed: 3}
	r := c.MustResolve()
	id := ID(r)
	assert.Regexp(t, regexp.MustCompile(`^ccn-[0-9a-f]{16}$`), id)
	// The IDs of existing results stay valid: these are the IDs of commit
	// f4320c2, before the run settings became a table.
	assert.Equal(t, "ccn-38883f3b51c0b5d5", id)
	l := 0.5
	assert.Equal(t, "tbptt-d689cf1fca36d9a0", ID(experiments.RunConfig{Method: "tbptt", Seed: 2, Steps: 100000, StepSize: 1e-3, Lambda: &l, Truncation: 4}.MustResolve()))
	assert.Equal(t, id, ID(r.Config().MustResolve()), "resolving again is the same run")
	assert.NotEqual(t, id, ID(r.WithSeed(4)))
	c3 := c
	c3.StepSize = 1e-3
	assert.NotEqual(t, id, ID(c3.MustResolve()))
	// The float32 engine is another run; its zero value leaves the ID as it was.
	c4 := c
	c4.Float32 = false
	assert.Equal(t, id, ID(c4.MustResolve()))
	c4.Float32 = true
	assert.NotEqual(t, id, ID(c4.MustResolve()))
}

func TestRankPutsDivergedLast(t *testing.T) {
	p := fakePlan(t)
	look := func(id string) Outcome { return Outcome{State: Pending} }
	_, settled := p.Rank(0, look)
	assert.False(t, settled)
	best, ok := p.Best(2, look)
	assert.True(t, ok, "a group with one candidate needs no sweep")
	assert.Equal(t, 0, best)

	// Errors: candidate 2 (step 1e-2) has the lowest mean but one diverged run.
	errs := map[string]float64{}
	states := map[string]State{}
	set := func(c int, seed uint64, e float64, st State) {
		id := p.Task(0, c, seed).ID
		errs[id], states[id] = e, st
	}
	set(0, 0, 0.3, Done)
	set(0, 1, 0.5, Done) // mean 0.4
	set(1, 0, 0.2, Done)
	set(1, 1, 0.4, Done) // mean 0.3: best
	set(2, 0, 0.1, Done)
	set(2, 1, 0, Diverged)
	look = func(id string) Outcome {
		return Outcome{State: states[id], Summary: experiments.Summary{FinalError: errs[id]}}
	}
	scores, settled := p.Rank(0, look)
	require.True(t, settled)
	assert.Equal(t, []int{1, 0, 2}, []int{scores[0].Candidate, scores[1].Candidate, scores[2].Candidate})
	assert.InDelta(t, 0.3, scores[0].Mean, 1e-15)
	assert.InDelta(t, 0.1, scores[0].SE, 1e-15, "s = 0.1·√2, s/√2 = 0.1")
	assert.Equal(t, 1, scores[2].Diverged)
	assert.Equal(t, 1, scores[2].Complete)
}

func TestPoolRunsSweepThenSelection(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	f.divergeAt = 1e-2 // step size 1e-2 diverges, though its fake error would be the largest anyway
	rep, err := Pool{Workers: 3, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	// ccn: 3×2 sweep + 2 final (seeds 2, 3); tbptt: 2×2 + 2; columnar: 4 finals.
	assert.Equal(t, 6+2+4+2+4, rep.Ran)
	assert.Equal(t, 2+2, rep.Diverged, "the 1e-2 candidates of both groups")
	assert.Equal(t, 0, rep.Waiting)
	assert.Equal(t, rep.Ran, f.total(), "every run computed exactly once")

	// The smallest step size has the smallest fake error: 3e-4 for ccn.
	res, err := Collect(out)
	require.NoError(t, err)
	sel := res.Selection()
	require.Len(t, sel, 3)
	assert.Equal(t, "step-size=0.0003", p.Groups[0].Candidates[sel[0].Candidate].Label)
	assert.Equal(t, "step-size=0.001", p.Groups[1].Candidates[sel[1].Candidate].Label)
	assert.True(t, sel[0].Settled)
	assert.Equal(t, 4, sel[0].Final.Complete)
	// Final errors 0.003 + seed/1000 for seeds 0..3: mean 0.0045.
	assert.InDelta(t, 0.0045, sel[0].Final.Mean, 1e-15)
	for _, tk := range p.FinalTasks(0, sel[0].Candidate) {
		assert.FileExists(t, filepath.Join(RunDir(out, tk.ID), experiments.SummaryFile))
	}

	// Resuming computes nothing, and removes the temporary files (as the
	// probe of experiments.CheckDir) that a killed process left in runs/.
	stale := filepath.Join(out, RunsDir, ".ccn-probe.3234620791.tmp")
	require.NoError(t, os.WriteFile(stale, nil, 0o644))
	rep, err = Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.NoFileExists(t, stale)
	assert.Equal(t, 0, rep.Ran)
	assert.Equal(t, 18, rep.Found)
	assert.Equal(t, 18, f.total())
}

func TestPoolRecordsFailuresWithoutStopping(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	bad := p.Task(1, 0, 1).ID // a sweep run of tbptt's best candidate
	f.fail[bad] = true
	rep, err := Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxAttempts, f.count(bad), "tried twice, then given up")
	assert.Equal(t, DefaultMaxAttempts, rep.Failed)
	o := Look(out, bad, DefaultMaxAttempts)
	assert.Equal(t, Failed, o.State)
	assert.Contains(t, o.Error, "fake failure")

	// tbptt's selection ranks the candidate with a failed run last.
	res, err := Collect(out)
	require.NoError(t, err)
	assert.Equal(t, "step-size=0.01", p.Groups[1].Candidates[res.Selection()[1].Candidate].Label)
	assert.Equal(t, 4, res.Selection()[0].Final.Complete, "other groups unaffected")

	// Not retried by a later invocation, unless asked.
	_, err = Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxAttempts, f.count(bad))
	delete(f.fail, bad)
	rep, err = Pool{Workers: 2, Run: f.run, RetryFailed: true}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxAttempts+1, f.count(bad))
	assert.Equal(t, Done, Look(out, bad, DefaultMaxAttempts).State)
	assert.NoFileExists(t, filepath.Join(RunDir(out, bad), FailedFile))
}

func TestPoolRecoversPanics(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	id := p.Task(2, 0, 0).ID
	run := func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
		if filepath.Base(dir) == id {
			panic("engine bug")
		}
		return f.run(ctx, cfg, dir)
	}
	_, err := Pool{Workers: 2, Run: run, MaxAttempts: 1}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	o := Look(out, id, 1)
	assert.Equal(t, Failed, o.State)
	assert.Contains(t, o.Error, "panic: engine bug")
}

func TestPoolStopsOnCancel(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 100)
	run := func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
		started <- struct{}{}
		<-ctx.Done()
		return experiments.Summary{}, ctx.Err()
	}
	go func() {
		<-started
		cancel()
	}()
	done := make(chan error)
	go func() {
		_, err := Pool{Workers: 2, Run: run}.Execute(ctx, p, out)
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(10 * time.Second):
		t.Fatal("Execute did not return after cancellation")
	}
	entries, err := os.ReadDir(filepath.Join(out, RunsDir))
	require.NoError(t, err)
	for _, e := range entries {
		assert.NoFileExists(t, filepath.Join(out, RunsDir, e.Name(), FailedFile), "an interruption is not a failure")
		assert.NoFileExists(t, filepath.Join(out, RunsDir, e.Name(), experiments.SummaryFile))
	}
}

func TestPoolSkipsRunsLockedElsewhere(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	require.NoError(t, SavePlan(out, p))
	held := p.Task(0, 0, 0).ID
	l, err := tryLock(out, held)
	require.NoError(t, err)
	_, err = tryLock(out, held)
	require.ErrorIs(t, err, errBusy, "a second lock of the same run fails")

	f := newFakeRunner()
	rep, err := Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, 1, rep.Busy)
	assert.Equal(t, 1, rep.Waiting, "ccn's selection waits for the locked run")
	assert.Zero(t, f.count(held))
	l.unlock()

	rep, err = Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, 1+2, rep.Ran, "the locked run, then ccn's two new final runs")
	assert.Equal(t, 0, rep.Waiting)
}

func TestConcurrentPoolsComputeEachRunOnce(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	slow := func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
		time.Sleep(2 * time.Millisecond)
		return f.run(ctx, cfg, dir)
	}
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			_, err := Pool{Workers: 2, Run: slow}.Execute(context.Background(), p, out)
			errs <- err
		}()
	}
	for range 3 {
		require.NoError(t, <-errs)
	}
	// Pools that found a run busy leave it to its holder; a last pass
	// finishes what the selection unlocked.
	_, err := Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	for id, n := range f.calls {
		assert.Equal(t, 1, n, "run %s computed %d times", id, n)
	}
	assert.Equal(t, 18, len(f.calls))
}

// TestWorkersGiveIdenticalFiles runs a real (tiny) plan with 1 and 3 workers.
func TestWorkersGiveIdenticalFiles(t *testing.T) {
	s, err := Load("testdata/tiny.yaml")
	require.NoError(t, err)
	s.Scales["test"] = Scale{Steps: 3000, SweepSeeds: Seeds{0, 1}, FinalSeeds: Seeds{0, 1, 2},
		Set: map[string]any{"window": 500, "log-every": 1000}}
	p, err := s.Plan("test")
	require.NoError(t, err)
	a, b := t.TempDir(), t.TempDir()
	// Ungated: what is tested is the files the workers write, and
	// TestPoolGates the gate.
	_, err = Pool{Workers: 1, NoGate: true}.Execute(context.Background(), p, a)
	require.NoError(t, err)
	_, err = Pool{Workers: 3, NoGate: true}.Execute(context.Background(), p, b)
	require.NoError(t, err)
	ids, err := os.ReadDir(filepath.Join(a, RunsDir))
	require.NoError(t, err)
	require.Len(t, ids, 2*2+1+2*2+1+3)
	for _, id := range ids {
		for _, f := range []string{experiments.CurveFile, experiments.PredictionsFile} {
			x, err := os.ReadFile(filepath.Join(a, RunsDir, id.Name(), f))
			require.NoError(t, err)
			y, err := os.ReadFile(filepath.Join(b, RunsDir, id.Name(), f))
			require.NoError(t, err)
			assert.Equal(t, x, y, "%s/%s", id.Name(), f)
		}
		sum, err := experiments.ReadSummary(filepath.Join(a, RunsDir, id.Name()))
		require.NoError(t, err)
		assert.Equal(t, id.Name(), ID(sum.Config.MustResolve()), "the directory is named by the config stored inside")
	}
}

// SweepOnly computes the sweep runs and no final run; the pool without it
// then computes the final runs only.
func TestPoolSweepOnly(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	f.divergeAt = 1e-2
	rep, err := Pool{Workers: 2, Run: f.run, SweepOnly: true}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, 6+4, rep.Ran, "ccn 3×2 and tbptt 2×2 sweep runs; columnar has no sweep stage")
	assert.Equal(t, 0, rep.Waiting)
	for g := range p.Groups {
		best, ok := p.Best(g, func(id string) Outcome { return Look(out, id, DefaultMaxAttempts) })
		require.True(t, ok)
		for _, tk := range p.FinalTasks(g, best) {
			if !slices.Contains(p.SweepSeeds, tk.Seed) || !p.Sweeps(g) {
				assert.NoFileExists(t, filepath.Join(RunDir(out, tk.ID), experiments.SummaryFile), p.Groups[g].Name)
			}
		}
	}
	rep, err = Pool{Workers: 2, Run: f.run}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, 2+2+4, rep.Ran, "the final runs: ccn and tbptt seeds 2, 3, columnar 0-3")
	assert.Equal(t, 18, f.total())
}
