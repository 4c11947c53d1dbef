package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/internal/testtier"
)

// TestPaperSweepRunsEveryRunOnce runs scripts/paper-sweep.sh's run loop on the
// tiny study with two workers taking two runs at a time: it ends, every run of
// both stages is complete (the final runs become runnable only when the
// sweep's runs are), both workers ran runs, and no run was computed twice
// (a worker never takes a run another holds).
func TestPaperSweepRunsEveryRunOnce(t *testing.T) {
	testtier.Full(t, "runs the tiny study through scripts/paper-sweep.sh")
	skipWithoutScaleCostTools(t)
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock is not installed")
	}
	bin := ccnBinary(t)
	work := t.TempDir()
	cmd := exec.Command("sh", "../../scripts/paper-sweep.sh", "run", work)
	cmd.Env = append(os.Environ(), "CCN="+bin, "SCALE=test", "STUDIES=tiny",
		"CONFIGS="+filepath.Dir(tinyStudy), "TBPTT=1", "JOBS=2", "CHUNK=2")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	left := filepath.Join(work, "left.txt")
	status, err := exec.Command(bin, "sweep", tinyStudy, "--scale", "test", "--out", work,
		"--emit-tasks", left).CombinedOutput()
	require.NoError(t, err, "%s", status)
	pending, err := os.ReadFile(left)
	require.NoError(t, err)
	assert.Empty(t, strings.TrimSpace(string(pending)), "runs left after the loop ended")

	for _, w := range []string{"worker 1 running", "worker 2 running"} {
		assert.Contains(t, string(out), w)
	}

	// cpu.log: a line per computed run, its run directory last.
	cpu, err := os.ReadFile(filepath.Join(work, "cpu.log"))
	require.NoError(t, err)
	times := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(cpu)), "\n") {
		f := strings.Fields(l)
		times[f[len(f)-1]]++
	}
	summaries, err := filepath.Glob(filepath.Join(work, "runs", "*", "summary.json"))
	require.NoError(t, err)
	require.NotEmpty(t, summaries)
	assert.Len(t, times, len(summaries), "runs computed against runs complete")
	for _, s := range summaries {
		d := filepath.Dir(s)
		assert.Equal(t, 1, times[d], "%s computed %d times", d, times[d])
	}
}
