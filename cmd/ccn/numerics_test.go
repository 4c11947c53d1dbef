package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/sweep"
)

// TestSweepRefusesMixedNumerics resumes a complete sweep whose runs claim to
// come from a build of other numerics: ccn sweep (pool and --emit-tasks)
// refuses with one line and exit 2, changing nothing; with
// --recompute-mismatched it recomputes them, to the reference sweep's files.
func TestSweepRefusesMixedNumerics(t *testing.T) {
	ref, _ := referenceSweep(t)
	out := filepath.Join(t.TempDir(), "results")
	require.NoError(t, exec.Command("cp", "-R", ref, out).Run())
	summaries, err := filepath.Glob(filepath.Join(out, sweep.RunsDir, "*", experiments.SummaryFile))
	require.NoError(t, err)
	require.NotEmpty(t, summaries)
	for _, p := range summaries {
		var m map[string]any
		require.NoError(t, json.Unmarshal(mustRead(t, p), &m))
		m["numerics"] = "other/0"
		b, _ := json.Marshal(m)
		require.NoError(t, os.WriteFile(p, b, 0o644))
	}
	before := mustRead(t, summaries[0])

	for _, extra := range [][]string{nil, {"--emit-tasks", filepath.Join(t.TempDir(), "tasks")}} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"sweep", tinyStudy, "--scale", "test", "--out", out}, extra...), &stdout, &stderr)
		assert.Equal(t, 2, code, "%v", extra)
		msg := stderr.String()
		assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %q", msg)
		assert.Contains(t, msg, "computed with numerics other/0")
		assert.Contains(t, msg, "--recompute-mismatched")
		assert.Equal(t, before, mustRead(t, summaries[0]), "nothing is rewritten")
	}

	var stdout, stderr bytes.Buffer
	code := run([]string{"sweep", tinyStudy, "--scale", "test", "--out", out, "--recompute-mismatched", "--no-gate"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "runs of other numerics recomputed")
	code = run([]string{"collect", out}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.NotContains(t, stderr.String(), "warning")
	sameResults(t, ref, out)
}
