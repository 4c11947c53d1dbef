package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/testtier"
	"github.com/ccn-go/ccn/sweep"
)

// tinyStudy is the test study of package sweep: 13 runs of a few tenths of a
// second at scale "test".
const tinyStudy = "../../sweep/testdata/tiny.yaml"

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// ccnBinary builds cmd/ccn once per test process, so that sweeps can be run
// (and killed) as real subprocesses.
func ccnBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		removeStaleTestDirs()
		dir, err := os.MkdirTemp("", "ccn-sweep-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "ccn")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New(string(out))
		}
	})
	require.NoError(t, binErr, "go build ./cmd/ccn")
	return binPath
}

// removeStaleTestDirs removes the binaries and reference sweeps that earlier
// test processes left in the temporary directory (they are shared by the
// tests of one process, so no test can remove them).
func removeStaleTestDirs() {
	for _, pattern := range []string{"ccn-sweep-test-*", "ccn-sweep-ref-*"} {
		dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), pattern))
		for _, d := range dirs {
			if fi, err := os.Stat(d); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.RemoveAll(d)
			}
		}
	}
}

var (
	refOnce sync.Once
	refDir  string
	refTime time.Duration
	refErr  error
)

// referenceSweep is an uninterrupted sweep of the tiny study with 2 workers,
// collected, and how long it took.
func referenceSweep(t *testing.T) (string, time.Duration) {
	t.Helper()
	bin := ccnBinary(t)
	refOnce.Do(func() {
		refDir, refErr = os.MkdirTemp("", "ccn-sweep-ref-")
		if refErr != nil {
			return
		}
		start := time.Now()
		if out, err := exec.Command(bin, "sweep", tinyStudy, "--scale", "test", "--out", refDir, "-j", "2").CombinedOutput(); err != nil {
			refErr = errors.New(string(out))
			return
		}
		refTime = time.Since(start)
		if out, err := exec.Command(bin, "collect", refDir).CombinedOutput(); err != nil {
			refErr = errors.New(string(out))
		}
	})
	require.NoError(t, refErr)
	return refDir, refTime
}

// sameResults asserts that two results directories hold the same runs with
// byte-identical files (summary.json up to its wall-clock fields) and the
// same collected tables, and that no temporary file is left.
func sameResults(t *testing.T, want, got string) {
	t.Helper()
	ids := func(dir string) []string {
		entries, err := os.ReadDir(filepath.Join(dir, sweep.RunsDir))
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	wantIDs := ids(want)
	require.NotEmpty(t, wantIDs)
	assert.Equal(t, wantIDs, ids(got))
	for _, id := range wantIDs {
		for _, f := range []string{experiments.CurveFile, experiments.PredictionsFile} {
			a, err := os.ReadFile(filepath.Join(want, sweep.RunsDir, id, f))
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(got, sweep.RunsDir, id, f))
			require.NoError(t, err, "%s/%s", id, f)
			assert.True(t, bytes.Equal(a, b), "%s/%s differs", id, f)
		}
		assert.Equal(t, timeless(t, filepath.Join(want, sweep.RunsDir, id)), timeless(t, filepath.Join(got, sweep.RunsDir, id)), id)
		entries, err := os.ReadDir(filepath.Join(got, sweep.RunsDir, id))
		require.NoError(t, err)
		for _, e := range entries {
			assert.False(t, strings.HasSuffix(e.Name(), ".tmp"), "temporary file %s/%s left", id, e.Name())
		}
	}
	for _, f := range []string{sweep.CurvesFile, sweep.CandidatesFile, sweep.SelectionFile} {
		a, err := os.ReadFile(filepath.Join(want, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(got, f))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "collected %s differs", f)
	}
}

// timeless returns a run's summary.json without the fields that measure
// time and without the binary's VCS stamp (revision, version): a run made in
// the test process and one made by a built ccn are different binaries, and
// whether go build stamps the revision depends on the environment (GOFLAGS).
// The numerics field, which decides whether results may be pooled, stays.
func timeless(t *testing.T, dir string) map[string]any {
	b, err := os.ReadFile(filepath.Join(dir, experiments.SummaryFile))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for _, k := range []string{"wall_seconds", "cpu_seconds", "steps_per_second", "revision", "version"} {
		delete(m, k)
	}
	return m
}

func sweepCmd(bin, out string, extra ...string) *exec.Cmd {
	return exec.Command(bin, append([]string{"sweep", tinyStudy, "--scale", "test", "--out", out}, extra...)...)
}

func TestSweepBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\ngroups: [{name: g, config: {method: ccn, seed: 3}}]\nscales: {s: {steps: 5, final-seeds: 0}}\n"), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"sweep", "--out", dir}, "experiment file is required"},
		{"missing file", []string{"sweep", filepath.Join(dir, "none.yaml"), "--out", dir}, "no such file"},
		{"bad file", []string{"sweep", bad, "--scale", "s", "--out", dir}, "seed is set by the scale"},
		{"unknown scale", []string{"sweep", tinyStudy, "--scale", "huge", "--out", dir}, `no scale "huge"`},
		{"no out", []string{"sweep", tinyStudy, "--scale", "test"}, "--out DIR is required"},
		{"no workers", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "-j", "0"}, "-j must be at least 1"},
		{"extra argument", []string{"sweep", tinyStudy, "more", "--out", dir}, "unexpected argument"},
		{"collect without dir", []string{"collect"}, "results directory"},
		{"collect of a non-results dir", []string{"collect", dir}, "holds no plans"},
		{"missing parent of out", []string{"sweep", tinyStudy, "--scale", "test", "--out", filepath.Join(dir, "none", "x")}, "parent " + filepath.Join(dir, "none") + " is not an existing directory"},
		{"unknown flag", []string{"sweep", tinyStudy, "--jobs", "2", "--out", dir}, "flag provided but not defined: --jobs (see ccn sweep -h)"},
		{"environment twice", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "--envs", "trace-patterning,trace-patterning"}, "trace-patterning appears twice in envs"},
		{"bad stream entry", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "--envs", "+atari:"}, "atari:FILE needs a file"},
		{"malformed number", []string{"sweep", tinyStudy, "--out", dir, "-j", "two"}, `invalid value "two" for flag --j`},
		{"unknown stage", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "--stage", "final"}, `--stage must be all or sweep, got "final"`},
		{"sweep stage emitted", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "--stage", "sweep", "--emit-tasks", filepath.Join(dir, "t")}, "--stage sweep is for the local pool"},
		{"status emitted", []string{"sweep", tinyStudy, "--scale", "test", "--out", dir, "--status", "--emit-tasks", filepath.Join(dir, "t")}, "--status computes nothing"},
		{"status of a missing directory", []string{"sweep", tinyStudy, "--scale", "test", "--out", filepath.Join(dir, "none"), "--status"}, "--status: results directory " + filepath.Join(dir, "none") + " does not exist"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		assert.Equal(t, 2, code, tt.name)
		assert.Contains(t, stderr.String(), tt.want, tt.name)
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "%s: one line: %q", tt.name, stderr.String())
		// Each layer is named once: "ccn sweep: invalid study ...", never "ccn sweep: ...: sweep: invalid study".
		assert.NotContains(t, stderr.String(), ": sweep: ", tt.name)
		assert.NotContains(t, stderr.String(), ": experiments: ", tt.name)
	}
	assert.NoDirExists(t, filepath.Join(dir, "none"), "nothing is created under a missing parent")
	var stdout, stderr bytes.Buffer
	run([]string{"sweep", bad, "--scale", "s", "--out", dir}, &stdout, &stderr)
	assert.True(t, strings.HasPrefix(stderr.String(), "ccn sweep: invalid study "+bad+": "), stderr.String())
}

// TestSweepStatus: --status counts the tiny study's runs by stage (8 sweep
// runs; columnar's 3 finals and, once a group is settled, its final seed 2)
// and estimates the time left from the complete runs of each group, here
// ccn's sweep runs written by hand at 3,600 s each; it computes and writes
// nothing.
func TestSweepStatus(t *testing.T) {
	out := t.TempDir()
	status := func() string {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{"sweep", tinyStudy, "--scale", "test", "--out", out, "--status", "-j", "2"}, &stdout, &stderr), stderr.String())
		return stdout.String()
	}
	assert.Equal(t, "tiny/test in "+out+"\n"+
		"  sweep stage: 0 of 8 runs complete (0 diverged), 0 failed, 8 pending\n"+
		"  final stage: 0 of 3 runs complete (0 diverged), 0 failed, 3 pending; 2 more waiting for their group's selection\n"+
		"  left: 1.3M steps; 1.3M steps of learners without a complete run not estimated\n", status())

	study, err := sweep.Load(tinyStudy)
	require.NoError(t, err)
	plan, err := study.Plan("test")
	require.NoError(t, err)
	for _, tk := range plan.SweepTasks(0) { // ccn
		require.Equal(t, "ccn", plan.Groups[tk.Group].Name)
		s := experiments.Summary{Config: tk.Config.Config(), Seed: tk.Seed, Steps: 100000, FinalError: 1 + tk.Config.Config().StepSize, WallSeconds: 3600}
		b, err := json.Marshal(s)
		require.NoError(t, err)
		dir := sweep.RunDir(out, tk.ID)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, experiments.SummaryFile), b, 0o644))
	}
	assert.Equal(t, "tiny/test in "+out+"\n"+
		"  sweep stage: 4 of 8 runs complete (0 diverged), 0 failed, 4 pending\n"+
		"  final stage: 0 of 4 runs complete (0 diverged), 0 failed, 4 pending; 1 more waiting for their group's selection\n"+
		"  left: 0.9M steps, about 1.0 run-hours for 0.1M of them at this directory's speeds (each run at the CPU time per step of its configuration's complete runs of its length, else of any length, else of its group's, else of the same learner's in another group; wall time where a run did not record it), 0.5 hours with -j 2; 0.8M steps of learners without a complete run not estimated\n",
		status())
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing written beside runs/")
}

// ccn sweep -h names each flag's argument (no help text turned into one).
func TestSweepHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"sweep", "-h"}, &stdout, &stderr))
	h := stderr.String()
	for _, want := range []string{"usage: ccn sweep FILE", "--emit-tasks file\n", "--emit-slurm file\n", "--ccn path\n",
		"--out dir\n", "--scale scale\n", "--sbatch option\n", "\n  -j int\n", "--no-gate\n"} {
		assert.Contains(t, h, want)
	}
	assert.NotContains(t, h, "--j ", "a one-letter flag takes one dash, as the usage line writes it")
	assert.Equal(t, 1, strings.Count(h, "usage:"))
}

// TestSweepKillAndResume kills a sweep with SIGKILL and with SIGINT at
// moments inside it, resumes it, and gets the uninterrupted results. Each
// kill comes when the killed invocation has completed a run of its own
// (waited for, not timed: a loaded machine only makes it come later) while
// runs remain, so it lands inside the sweep, not after it.
func TestSweepKillAndResume(t *testing.T) {
	testtier.Full(t, "four sweeps of the tiny study as subprocesses, three of them killed")
	bin := ccnBinary(t)
	ref, _ := referenceSweep(t)
	total := len(completeRuns(t, ref))
	out := t.TempDir()

	for _, sig := range []os.Signal{syscall.SIGKILL, os.Interrupt, syscall.SIGKILL} {
		before := len(completeRuns(t, out))
		require.Less(t, before+1, total, "runs left for this invocation to be killed inside")
		cmd := sweepCmd(bin, out, "-j", "2")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		n, err := waitForRuns(t, out, before+1, exited)
		require.NoError(t, err, "stderr: %s", stderr.String())
		require.Less(t, n, total, "the sweep finished before it was killed: %s", stderr.String())
		require.NoError(t, cmd.Process.Signal(sig))
		err = <-exited
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "the sweep finished before it was killed: %s", stderr.String())
		if sig == os.Interrupt {
			assert.Equal(t, exitInterrupted, ee.ExitCode(), stderr.String())
			assert.Contains(t, stderr.String(), "run the same command again to resume")
		}
		// Nothing incomplete looks complete.
		runs, err := os.ReadDir(filepath.Join(out, sweep.RunsDir))
		require.NoError(t, err)
		complete := 0
		for _, r := range runs {
			if _, err := experiments.ReadSummary(filepath.Join(out, sweep.RunsDir, r.Name())); err == nil {
				complete++
				for _, f := range []string{experiments.CurveFile, experiments.PredictionsFile} {
					assert.FileExists(t, filepath.Join(out, sweep.RunsDir, r.Name(), f))
				}
			}
		}
		assert.Less(t, complete, total, "killed inside the sweep")
		t.Logf("%v after %d runs complete (%d before): %d of %d run directories complete", sig, n, before, complete, len(runs))
	}
	res, err := sweepCmd(bin, out, "-j", "2").CombinedOutput()
	require.NoError(t, err, string(res))
	assert.Contains(t, string(res), "found complete")
	res, err = exec.Command(bin, "collect", out).CombinedOutput()
	require.NoError(t, err, string(res))
	sameResults(t, ref, out)

	// A complete sweep computes nothing more.
	res, err = sweepCmd(bin, out, "-j", "2").CombinedOutput()
	require.NoError(t, err, string(res))
	assert.Contains(t, string(res), "0 runs computed")
}

// completeRuns lists the run directories of the results directory out that
// hold a summary.json (the file a run writes last).
func completeRuns(t *testing.T, out string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(out, sweep.RunsDir, "*", experiments.SummaryFile))
	require.NoError(t, err)
	return m
}

// waitForRuns polls out until at least n runs are complete and returns how
// many are; an error if the process reports on exited first, or after a
// minute (so that a hung sweep fails the test rather than stalling it).
func waitForRuns(t *testing.T, out string, n int, exited <-chan error) (int, error) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(time.Minute)
	for {
		if k := len(completeRuns(t, out)); k >= n {
			return k, nil
		}
		select {
		case err := <-exited:
			return 0, fmt.Errorf("the sweep exited (%v) before %d runs were complete", err, n)
		case <-deadline:
			return 0, fmt.Errorf("%d runs not complete after a minute", n)
		case <-tick.C:
		}
	}
}

// TestSweepOneWorker gives the same results with one worker as with two.
func TestSweepOneWorker(t *testing.T) {
	testtier.Full(t, "two sweeps of the tiny study as subprocesses")
	bin := ccnBinary(t)
	ref, _ := referenceSweep(t)
	out := t.TempDir()
	res, err := sweepCmd(bin, out, "-j", "1").CombinedOutput()
	require.NoError(t, err, string(res))
	res, err = exec.Command(bin, "collect", out).CombinedOutput()
	require.NoError(t, err, string(res))
	assert.Contains(t, string(res), "step-size=")
	sameResults(t, ref, out)
}

// TestSweepGNUParallel runs the emitted task files through GNU parallel, one
// stage after the other, and collects the same results as the local pool.
func TestSweepGNUParallel(t *testing.T) {
	testtier.Full(t, "two sweeps of the tiny study as subprocesses")
	parallel, err := exec.LookPath("parallel")
	if err != nil {
		t.Skip("GNU parallel is not installed (apt-get install parallel; .ci/run installs it): the parallel path is not tested")
	}
	bin := ccnBinary(t)
	ref, _ := referenceSweep(t)
	out := t.TempDir()
	tasks := filepath.Join(t.TempDir(), "tasks.txt")
	stages := 0
	for ; stages < 4; stages++ {
		res, err := sweepCmd(bin, out, "--emit-tasks", tasks, "--ccn", bin).CombinedOutput()
		require.NoError(t, err, string(res))
		b, err := os.ReadFile(tasks)
		require.NoError(t, err)
		if len(b) == 0 {
			assert.Contains(t, string(res), "every run is complete")
			break
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			assert.True(t, strings.HasPrefix(line, bin+" run "), line)
			assert.Contains(t, line, "--out "+filepath.Join(out, sweep.RunsDir))
		}
		cmd := exec.Command(parallel, "--will-cite", "--halt", "never", "-j", "2")
		cmd.Stdin = bytes.NewReader(b)
		res, err = cmd.CombinedOutput()
		require.NoError(t, err, string(res))
	}
	assert.Equal(t, 2, stages, "the sweep stage, then the final stage")
	res, err := exec.Command(bin, "collect", out).CombinedOutput()
	require.NoError(t, err, string(res))
	sameResults(t, ref, out)
}

// TestSweepEmitSlurm checks the script and task file written for Slurm
// (submitting it is TestSlurmArray, make test-slurm).
func TestSweepEmitSlurm(t *testing.T) {
	bin := ccnBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "res")
	script := filepath.Join(dir, "job.sbatch")
	res, err := sweepCmd(bin, out, "--emit-slurm", script, "--throttle", "3", "--sbatch", "--time=00:10:00").CombinedOutput()
	require.NoError(t, err, string(res))
	s, err := os.ReadFile(script)
	require.NoError(t, err)
	lines, err := os.ReadFile(script + ".tasks")
	require.NoError(t, err)
	n := strings.Count(string(lines), "\n")
	assert.Equal(t, 2*2+2*2+3, n, "sweep runs of ccn and tbptt, final runs of columnar")
	assert.Contains(t, string(s), "#SBATCH --array=1-11%3\n")
	assert.Contains(t, string(s), "#SBATCH --time=00:10:00\n")
	assert.Contains(t, string(s), "#SBATCH --output="+filepath.Join(out, "logs")+"/%A_%a.out")
	fi, err := os.Stat(script)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&0o100, "the script is executable")
}

// TestSweepEmitToDevNull writes the task file to a device in place: a rename
// over /dev/null would replace the device with a regular file.
func TestSweepEmitToDevNull(t *testing.T) {
	fi, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	require.NotZero(t, fi.Mode()&os.ModeCharDevice)
	var stdout, stderr bytes.Buffer
	code := run([]string{"sweep", tinyStudy, "--scale", "test", "--out", t.TempDir(), "--emit-tasks", os.DevNull}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "11 runnable runs")
	fi, err = os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeCharDevice, "/dev/null is still a device")
}
