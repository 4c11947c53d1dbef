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
// tiny study with two workers: it ends, every run of both stages is complete
// (the final runs become runnable only when the sweep's runs are), and no run
// was computed twice (a worker never takes a run another computes). With
// plans of 16 runs both workers compute the first plan's runs (the sweep
// stage's eight and the three columnar finals), not whichever planned
// first; with plans of one run each worker plans again while the other's
// run is starting or ending, so that a plan that ignored the other's claim,
// or took it for pending after it ended, would repeat it.
func TestPaperSweepRunsEveryRunOnce(t *testing.T) {
	testtier.Full(t, "runs the tiny study through scripts/paper-sweep.sh")
	skipWithoutScaleCostTools(t)
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock is not installed")
	}
	bin := ccnBinary(t)
	// The runs start half a second late, as on a loaded machine (the worker's
	// nice is slow to start them): a plan made meanwhile sees no process of
	// the run (ps), only the worker's claim.
	nice, err := exec.LookPath("nice")
	require.NoError(t, err)
	shims := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(shims, "nice"), []byte("#!/bin/sh\nsleep 0.5\nexec "+nice+" \"$@\"\n"), 0o755))
	// Planning is slow too: ccn sweep waits 0.3 s after listing the runnable
	// runs, so that runs end while a plan is being made (a plan that took
	// its snapshot of the runs in progress after the list would take a run
	// that ended in between for pending).
	slowPlan := filepath.Join(shims, "ccn-slow-plan")
	require.NoError(t, os.WriteFile(slowPlan, []byte("#!/bin/sh\n"+bin+" \"$@\"\ns=$?\n[ \"$1\" != sweep ] || sleep 0.3\nexit $s\n"), 0o755))
	for _, chunk := range []string{"16", "1"} {
		t.Run("CHUNK="+chunk, func(t *testing.T) {
			work := t.TempDir()
			cmd := exec.Command("sh", "../../scripts/paper-sweep.sh", "run", work)
			cmd.Env = append(os.Environ(), "PATH="+shims+string(os.PathListSeparator)+os.Getenv("PATH"), "CCN="+slowPlan, "SCALE=test", "STUDIES=tiny",
				"CONFIGS="+filepath.Dir(tinyStudy), "TBPTT=1", "JOBS=2", "CHUNK="+chunk)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)

			left := filepath.Join(work, "left.txt")
			status, err := exec.Command(bin, "sweep", tinyStudy, "--scale", "test", "--out", work,
				"--emit-tasks", left).CombinedOutput()
			require.NoError(t, err, "%s", status)
			pending, err := os.ReadFile(left)
			require.NoError(t, err)
			assert.Empty(t, strings.TrimSpace(string(pending)), "runs left after the loop ended")

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
			require.Len(t, summaries, 13, "the tiny study's 8 sweep and 5 final runs")
			assert.Len(t, times, len(summaries), "runs computed against runs complete")
			for _, s := range summaries {
				d := filepath.Dir(s)
				assert.Equal(t, 1, times[d], "%s computed %d times", d, times[d])
			}

			// runs.log: "paper-sweep: worker N: DIR" as each worker takes a run.
			runsLog, err := os.ReadFile(filepath.Join(work, "runs.log"))
			require.NoError(t, err)
			var takers []string
			for _, l := range strings.Split(string(runsLog), "\n") {
				if w, ok := strings.CutPrefix(l, "paper-sweep: worker "); ok {
					takers = append(takers, strings.SplitN(w, ":", 2)[0])
				}
			}
			require.Len(t, takers, len(summaries), "%s", runsLog)
			if chunk == "16" {
				first := map[string]int{}
				for _, w := range takers[:11] {
					first[w]++
				}
				assert.GreaterOrEqual(t, first["1"], 3, "the first plan's runs taken by worker 1: %v", takers)
				assert.GreaterOrEqual(t, first["2"], 3, "the first plan's runs taken by worker 2: %v", takers)
			}
		})
	}
}
