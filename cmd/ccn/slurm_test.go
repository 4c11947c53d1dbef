//go:build slurm

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlurmArray submits the emitted job-array scripts of the tiny study to a
// real Slurm (scripts/slurm-up.sh starts a single-node one; make test-slurm),
// stage after stage, and checks that the collected results are those of the
// local pool.
func TestSlurmArray(t *testing.T) {
	sbatch, err := exec.LookPath("sbatch")
	require.NoError(t, err, "sbatch not found: run scripts/slurm-up.sh (make test-slurm)")
	out, err := exec.Command("sinfo", "-h", "-o", "%a %D").CombinedOutput()
	require.NoError(t, err, "no Slurm controller answers (scripts/slurm-up.sh): %s", out)

	bin := ccnBinary(t)
	ref, _ := referenceSweep(t)
	// Slurm runs the tasks as other processes: use directories outside the
	// test's private temporary tree, removed at the end.
	dir, err := os.MkdirTemp("", "ccn-slurm-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	results := filepath.Join(dir, "results")
	script := filepath.Join(dir, "job.sbatch")

	stages := 0
	for ; stages < 4; stages++ {
		res, err := sweepCmd(bin, results, "--emit-slurm", script, "--ccn", bin, "--throttle", "2").CombinedOutput()
		require.NoError(t, err, string(res))
		if strings.Contains(string(res), "every run is complete") {
			break
		}
		tasks, err := os.ReadFile(script + ".tasks")
		require.NoError(t, err)
		n := strings.Count(string(tasks), "\n")
		require.Positive(t, n, string(res))
		s, err := os.ReadFile(script)
		require.NoError(t, err)
		assert.Contains(t, string(s), "#SBATCH --array=1-"+strconv.Itoa(n)+"%2\n")

		// --wait returns when every array task has ended, with a non-zero
		// status if one failed.
		res, err = exec.Command(sbatch, "--wait", script).CombinedOutput()
		require.NoError(t, err, "sbatch --wait: %s", res)
		logs, err := filepath.Glob(filepath.Join(results, "logs", "*_*.out"))
		require.NoError(t, err)
		assert.GreaterOrEqual(t, len(logs), n, "one log per array task")
	}
	assert.Equal(t, 2, stages, "the sweep stage, then the final stage")
	res, err := exec.Command(bin, "collect", results).CombinedOutput()
	require.NoError(t, err, string(res))
	t.Logf("collected from Slurm:\n%s", res)
	sameResults(t, ref, results)
}
