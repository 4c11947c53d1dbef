package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
)

// TestPoolRefusesMixedNumerics computes a plan with a build of one numerics
// and resumes it with another: the resume refuses before computing anything
// and writes nothing; with RecomputeMismatched it computes every complete run
// again and the group no longer pools two builds.
func TestPoolRefusesMixedNumerics(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	old := newFakeRunner()
	old.builds = "scalar"
	rep, err := Pool{Workers: 2, Run: old.run, Numerics: "scalar"}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	runs := rep.Ran

	// The same numerics resumes: nothing to do.
	rep, err = Pool{Run: old.run, Numerics: "scalar"}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, 0, rep.Ran)

	// One run of another build is enough to refuse.
	id := p.Task(0, 0, 0).ID
	s, err := experiments.ReadSummary(RunDir(out, id))
	require.NoError(t, err)
	assert.Equal(t, "scalar", s.NumericsID())

	plans, _ := os.ReadDir(filepath.Join(out, PlansDir))
	os.RemoveAll(filepath.Join(out, PlansDir))
	lane := newFakeRunner()
	lane.builds = "simd/1"
	rep, err = Pool{Workers: 2, Run: lane.run, Numerics: "simd/1"}.Execute(context.Background(), p, out)
	var ne *NumericsError
	require.True(t, errors.As(err, &ne), "%v", err)
	assert.Equal(t, "scalar", ne.Stored)
	assert.Equal(t, "simd/1", ne.Numerics)
	assert.Equal(t, runs, ne.Runs, "every complete run the resume would read is another build's")
	assert.Regexp(t, `holds \d+ runs computed with numerics scalar \(e\.g\. runs/\S+\), this build computes simd/1; .*--recompute-mismatched`, err.Error())
	assert.Equal(t, 0, lane.total(), "nothing computed")
	assert.Equal(t, 0, rep.Ran)
	again, _ := os.ReadDir(filepath.Join(out, PlansDir))
	assert.Empty(t, again, "the refusal writes nothing (had %d plans)", len(plans))
	assert.Error(t, CheckNumerics(p, out, 0, "simd/1"))
	assert.NoError(t, CheckNumerics(p, out, 0, "scalar"))

	// Recompute: every run of the other build is computed again.
	rep, err = Pool{Workers: 2, Run: lane.run, Numerics: "simd/1", RecomputeMismatched: true}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	assert.Equal(t, runs, rep.Mismatched)
	assert.Equal(t, runs, rep.Ran)
	assert.Equal(t, 1, lane.count(RunDir(out, id)))
	s, err = experiments.ReadSummary(RunDir(out, id))
	require.NoError(t, err)
	assert.Equal(t, "simd/1", s.NumericsID())
	res, err := Collect(out)
	require.NoError(t, err)
	assert.Empty(t, res.Mixed())
	assert.NoError(t, CheckNumerics(p, out, 0, "simd/1"))
}

// TestCollectFlagsMixedNumerics: a group whose runs two builds computed is
// named by Mixed with its counts, and its scores count the builds.
func TestCollectFlagsMixedNumerics(t *testing.T) {
	p := fakePlan(t)
	out := t.TempDir()
	f := newFakeRunner()
	f.builds = "simd/1"
	_, err := Pool{Workers: 2, Run: f.run, Numerics: "simd/1"}.Execute(context.Background(), p, out)
	require.NoError(t, err)
	res, err := Collect(out)
	require.NoError(t, err)
	assert.Empty(t, res.Mixed())

	// Rewrite one sweep run of group ccn as an old scalar-built summary.
	id := p.Task(0, 1, 0).ID
	s, err := experiments.ReadSummary(RunDir(out, id))
	require.NoError(t, err)
	s.Kernels, s.Numerics = "", ""
	writeSummary(t, RunDir(out, id), s)

	res, err = Collect(out)
	require.NoError(t, err)
	mixed := res.Mixed()
	require.Len(t, mixed, 1)
	assert.Regexp(t, `^fake/s group ccn pools runs of different numerics: scalar:1 simd/1:\d+$`, mixed[0])
	for _, sel := range res.Selection() {
		if sel.Plan.Groups[sel.Group].Name == "ccn" {
			assert.Equal(t, 1, sel.Numerics["scalar"])
		}
	}
}

func writeSummary(t *testing.T, dir string, s experiments.Summary) {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, experiments.SummaryFile), b, 0o644))
}

// A run of the float32 engine matches lanes.Float32Numerics of a build's
// numerics (experiments.RunNumerics), and a float64 run the build's own.
func TestMismatchedFloat32(t *testing.T) {
	f32 := experiments.RunConfig{Float32: true}
	f32Numerics := lanes.Float32Numerics("simd/1")
	for _, tc := range []struct {
		cfg      experiments.RunConfig
		numerics string
		want     bool
	}{
		{experiments.RunConfig{}, "simd/1", false},
		{experiments.RunConfig{}, f32Numerics, true},
		{f32, f32Numerics, false},
		{f32, "simd/1", true},
		{f32, "scalar/f32", true},
		{f32, "simd/1/f32", true}, // the float32 kernels' first version
		{f32, lanes.Float32Numerics("simd/2"), true},
	} {
		o := Outcome{State: Done, Summary: experiments.Summary{Config: tc.cfg, Numerics: tc.numerics}}
		assert.Equal(t, tc.want, mismatched(o, "simd/1"), "%+v", tc)
	}
}
