package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ccn run --cpuprofile writes a gzipped pprof profile whose samples are the
// run's loop, and leaves the run's files as a run without it writes them.
func TestRunCPUProfile(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	args := func(out string) []string {
		return []string{"run", "--steps", "300000", "--window", "1000", "--log-every", "100000", "--no-gate",
			"--method", "columnar", "--features", "4", "--features-per-stage", "4", "--out", out}
	}
	code, _, stderr := runCLI(append(args(filepath.Join(dir, "with")), "--cpuprofile", prof)...)
	require.Equal(t, 0, code, stderr)

	raw, err := os.ReadFile(prof)
	require.NoError(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	require.NoError(t, err, "a pprof profile is gzipped")
	pb, err := io.ReadAll(zr)
	require.NoError(t, err)
	// Function names are plain strings in the profile's string table; the
	// run's loop is on the stack of every sample taken while it learns.
	assert.Contains(t, string(pb), "ccn/experiments.execute")

	code, _, stderr = runCLI(args(filepath.Join(dir, "without"))...)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, mustRead(t, filepath.Join(dir, "without", "curve.csv")), mustRead(t, filepath.Join(dir, "with", "curve.csv")))
}

// A run refused for its directory (another configuration's run is there)
// leaves no profile behind, as it leaves nothing else.
func TestRunCPUProfileRefusedRun(t *testing.T) {
	dir := t.TempDir()
	out, prof := filepath.Join(dir, "run"), filepath.Join(dir, "cpu.prof")
	code, _, stderr := runCLI(quick(out, "--method", "ccn")...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI(quick(out, "--method", "columnar", "--cpuprofile", prof)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "holds a complete run with method ccn")
	assert.NoFileExists(t, prof)
}
