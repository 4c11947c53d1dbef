package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var short = RunConfig{Method: arch.MethodColumnar, Features: 2, Steps: 5000, Window: 1000, LogEvery: 1000}

func TestRunCancelledLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "run")
	cfg := short
	cfg.Steps = 100_000
	_, err := Run(ctx, cfg, dir, Options{})
	require.ErrorIs(t, err, context.Canceled)
	assert.NoDirExists(t, dir, "a directory Run created is removed")

	// In an existing directory only Run's own files are removed.
	existing := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(existing, "notes"), []byte("x"), 0o644))
	_, err = Run(ctx, cfg, existing, Options{})
	require.ErrorIs(t, err, context.Canceled)
	entries, err := os.ReadDir(existing)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "notes", entries[0].Name())
}

func TestRunGateRefuses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	refuse := errors.New("engine disagrees")
	var seen RunConfig
	_, err := Run(context.Background(), short, dir, Options{Gate: func(c RunConfig) error { seen = c; return refuse }})
	require.ErrorIs(t, err, refuse)
	assert.NoDirExists(t, dir)
	assert.Equal(t, short.Resolve(), seen, "the gate sees the resolved configuration")
}

func TestRunInvalidCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := short
	cfg.StepSize = -1
	_, err := Run(context.Background(), cfg, dir, Options{})
	require.ErrorIs(t, err, ErrInvalid)
	assert.NoDirExists(t, dir)
}

func TestRunSkipsAndForces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	s1, err := Run(context.Background(), short, dir, Options{})
	require.NoError(t, err)
	assert.False(t, s1.Skipped)
	assert.Equal(t, 5000, s1.Steps)

	s2, err := Run(context.Background(), short, dir, Options{})
	require.NoError(t, err)
	assert.True(t, s2.Skipped)
	assert.Equal(t, s1.FinalError, s2.FinalError)

	s3, err := Run(context.Background(), short, dir, Options{Force: true})
	require.NoError(t, err)
	assert.False(t, s3.Skipped)
	assert.Equal(t, s1.FinalError, s3.FinalError, "deterministic")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{CurveFile, PredictionsFile, SummaryFile}, names, "no temporary file is left")
}

func TestRunDivergence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := RunConfig{Method: arch.MethodTBPTT, StepSize: 1e300, Steps: 5000, Window: 100, LogEvery: 10}
	s, err := Run(context.Background(), cfg, dir, Options{})
	require.ErrorIs(t, err, ErrDiverged)
	assert.True(t, s.Diverged)
	read, err := ReadSummary(dir)
	require.NoError(t, err)
	assert.True(t, read.Diverged)
	assert.Equal(t, s.Steps, read.Steps)
	curve, err := os.ReadFile(filepath.Join(dir, CurveFile))
	require.NoError(t, err)
	low := strings.ToLower(string(curve))
	assert.NotContains(t, low, "nan")
	assert.NotContains(t, low, "inf")
}

func TestRunProgressLines(t *testing.T) {
	var b strings.Builder
	_, err := Run(context.Background(), short, filepath.Join(t.TempDir(), "run"), Options{Progress: &b})
	require.NoError(t, err)
	assert.Contains(t, b.String(), "columnar seed 0: 5000 steps")
	assert.Contains(t, b.String(), "done: 5000 steps")
}

func TestWindowError(t *testing.T) {
	w := newWindowError(3)
	assert.Equal(t, 0.0, w.mean())
	for _, v := range []float64{1, 2, 3, 4, 5} {
		w.add(v)
	}
	assert.Equal(t, 4.0, w.mean()) // (3+4+5)/3
	assert.Equal(t, 3.0, w.lifetimeMean())
}

func ExampleRun() {
	dir, _ := os.MkdirTemp("", "ccn-example")
	defer os.RemoveAll(dir)
	cfg := RunConfig{Method: arch.MethodColumnar, Features: 2, Steps: 2000, Window: 1000, LogEvery: 1000, Seed: 1}
	s, err := Run(context.Background(), cfg, filepath.Join(dir, "run"), Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	curve, _ := os.ReadFile(filepath.Join(dir, "run", CurveFile))
	fmt.Println(s.Steps, s.Diverged, strings.Count(string(curve), "\n"))
	fmt.Println(strings.SplitN(string(curve), "\n", 2)[0])
	// Output:
	// 2000 false 3
	// step,error
}
