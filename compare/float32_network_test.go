package compare

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/forward"
)

// TestCheckFloat32Network holds the float32 engine to the float64 one
// within Float32Tolerance on random trajectories of both input kinds at
// every scale, and proves the check's teeth: a float32 engine that reads a
// stale copy of its input (Float32StaleInput) fails it at every scale, and
// at the gate's scales (0.5 and 1.5) so does one that drops the recurrent
// term of its traces (below 275 inputs: at 275 the tolerance's m term lets
// some trajectories hide it, docs/verification.md) or restarts the feature
// statistics at a stage change. (At scale 0.1 the recurrent weights |u_q| ≤
// 0.1 make the dropped term about as small as float32's rounding over these
// short trajectories.)
func TestCheckFloat32Network(t *testing.T) {
	for ci, tc := range Float32NetCases {
		total := 0
		for _, s := range tc.Spec.Segments {
			total += s
		}
		for i := range 3 {
			rng := newRand(25, 10*ci+i)
			tr := randomTrajectory(rng, i, total, tc.Spec.Inputs)
			a := CheckFloat32Network(tc.Spec, tr, uint64(ci*10+i), forward.NoDefect)
			if !a.Pass() {
				t.Errorf("%s (%v, scale %g): step %d rel %.3g, %.3g of the tolerance", tc.Name, tr.Kind, tr.Scale, a.Step, a.MaxRel, a.Worst)
			}
			t.Logf("%s (%v, scale %g): worst rel %.3g = %.3g of the tolerance at step %d", tc.Name, tr.Kind, tr.Scale, a.MaxRel, a.Worst, a.Step)
			defects := []forward.Defect{forward.DropRecurrentTerm}
			if len(tc.Spec.Segments) > 1 && tc.Spec.Norm.Enabled {
				defects = append(defects, forward.RestartStatsAtStage)
			}
			if tr.Scale < 0.5 {
				defects = nil
			}
			if tc.Spec.Inputs >= 275 {
				defects = slices.DeleteFunc(defects, func(d forward.Defect) bool { return d == forward.DropRecurrentTerm })
			}
			if a := CheckFloat32Network(tc.Spec, tr, uint64(ci*10+i), forward.Float32StaleInput); a.Pass() {
				t.Errorf("%s (%v, scale %g): a stale float32 input passes (%.3g of the tolerance)", tc.Name, tr.Kind, tr.Scale, a.Worst)
			}
			for _, d := range defects {
				if a := CheckFloat32Network(tc.Spec, tr, uint64(ci*10+i), d); a.Pass() {
					t.Errorf("%s (%v, scale %g): defect %v passes (%.3g of the tolerance)", tc.Name, tr.Kind, tr.Scale, d, a.Worst)
				}
			}
		}
	}
}

// Float32Suite runs every case at every scale, and with an injected mistake
// fails the cases it reaches.
func TestFloat32Suite(t *testing.T) {
	rs := Float32Suite(1, 0, InjectNone)
	require.Len(t, rs, 3*(len(Float32NetCases)+len(Float32TBPTTCases)))
	for _, r := range rs {
		assert.True(t, r.Pass(), "%s scale %g: %.3g of the tolerance", r.Name, r.Scale, r.Worst)
	}
	failed := 0
	for _, r := range Float32Suite(1, 0, InjectDropRecurrentTerm) {
		if !r.Pass() {
			failed++
		}
	}
	assert.GreaterOrEqual(t, failed, 2*len(Float32NetCases)-2, "the scales 0.5 and 1.5 of (nearly) every network case fail")
	failed = 0
	for _, r := range Float32Suite(1, 0, InjectDropForgetPath) {
		if !r.Pass() {
			assert.Contains(t, r.Name, "tbptt", "the forget path is T-BPTT's")
			failed++
		}
	}
	assert.GreaterOrEqual(t, failed, 2*len(Float32TBPTTCases), "the scales 0.5 and 1.5 of every T-BPTT case fail")
}

// The gate of a float32 run holds the float32 engine to the float64 one: it
// passes a correct engine and refuses one with the recurrent term dropped,
// naming the float32 check.
func TestGateFloat32(t *testing.T) {
	rng := newRand(3, 0)
	xs := randomTrajectory(rng, 0, GateLength, 20).Xs
	spec := GateSpec{Xs: xs, Seed: 3, Float32: true,
		Net: &GateNet{FeaturesPerStage: 2, MaxFeatures: 4, Norm: arch.Normalization{Enabled: true}}}
	require.NoError(t, gateFloat32(spec))
	spec.Inject = InjectDropRecurrentTerm
	err := gateFloat32(spec)
	var ge *GateError
	require.ErrorAs(t, err, &ge)
	assert.True(t, ge.Float32)
	assert.Contains(t, err.Error(), "float32 engine")
	assert.Contains(t, err.Error(), "float64 engine")
}

// A run of the float32 setting (a network's or T-BPTT's) has its gate hold
// the float32 engine to the float64 one: RunGateSpec says so, and the gate
// passes the engine; the float64 run's does not.
func TestRunGateFloat32(t *testing.T) {
	for _, c := range []experiments.RunConfig{
		{Method: arch.MethodCCN, Features: 4, FeaturesPerStage: 2},
		{Method: arch.MethodTBPTT, Hidden: 3, Truncation: 4},
	} {
		c32 := c
		c32.Float32 = true
		r := c32.MustResolve()
		spec, ok := RunGateSpec(r, InjectNone)
		require.True(t, ok)
		assert.True(t, spec.Float32, "%s", c.Method)
		require.NoError(t, RunGate(r), "%s", c.Method)
		spec, _ = RunGateSpec(c.MustResolve(), InjectNone)
		assert.False(t, spec.Float32, "%s", c.Method)
	}
}
