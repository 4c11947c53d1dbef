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

var short = RunConfig{Method: arch.MethodColumnar, Features: 2, Steps: 5000, Window: 1000, LogEvery: 1000}.MustResolve()

func TestRunCancelledLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "run")
	c := short.Config()
	c.Steps = 100_000
	cfg := c.MustResolve()
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
	var seen Resolved
	_, err := Run(context.Background(), short, dir, Options{Gate: func(r Resolved) error { seen = r; return refuse }})
	require.ErrorIs(t, err, refuse)
	assert.NoDirExists(t, dir)
	assert.Equal(t, short, seen, "the gate sees the resolved configuration")
}

func TestRunUnusableDirCreatesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "run")
	_, err := Run(context.Background(), short, dir, Options{})
	var ce *ConfigError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Equal(t, "out", ce.Key)
	assert.NoDirExists(t, filepath.Dir(dir))
}

// A directory holding a complete run of another configuration is not taken
// for the requested one.
func TestRunRefusesAnotherRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	_, err := Run(context.Background(), short, dir, Options{})
	require.NoError(t, err)
	before, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	require.NoError(t, err)
	for _, tt := range []struct {
		change      func(c *RunConfig)
		key, stored string
	}{
		{func(c *RunConfig) {
			c.Method, c.Features, c.FeaturesPerStage, c.Epsilon, c.NormDecay = arch.MethodTBPTT, 0, 0, 0, 0
		}, "method", "columnar"},
		{func(c *RunConfig) { c.Seed = 9 }, "seed", "0"},
		{func(c *RunConfig) { c.Window = 500 }, "window", "1000"},
	} {
		c := short.Config()
		tt.change(&c)
		_, err := Run(context.Background(), c.MustResolve(), dir, Options{})
		var other *OtherRunError
		require.True(t, errors.As(err, &other), "%v", err)
		assert.Equal(t, tt.key, other.Key)
		assert.Equal(t, tt.stored, other.Stored)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), "--force")
	}
	after, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	require.NoError(t, err)
	assert.Equal(t, before, after, "the stored run is untouched")
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
	cfg := RunConfig{Method: arch.MethodTBPTT, StepSize: 1e300, Steps: 5000, Window: 100, LogEvery: 10}.MustResolve()
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
	cfg, err := RunConfig{Method: arch.MethodColumnar, Features: 2, Steps: 2000, Window: 1000, LogEvery: 1000, Seed: 1}.Resolve()
	if err != nil {
		fmt.Println(err)
		return
	}
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
