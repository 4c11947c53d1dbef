package compare

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
)

// gateInputs is a stretch of trace patterning after a warm-up, as ccn run
// gives the gate.
func gateInputs(n int) [][]float64 {
	return streamInputs(env.NewTracePatterning(env.TraceConfig{}, 3), 500, n)
}

// gateSpecs are the paper's trace patterning configurations of each method.
func gateSpecs() map[arch.Method]GateSpec {
	xs := gateInputs(GateLength)
	norm := arch.Normalization{Enabled: true}
	dense := arch.Dense{Hidden: 4, Inputs: len(xs[0]), OutBias: true}
	return map[arch.Method]GateSpec{
		arch.MethodCCN:          {Xs: xs, Net: &GateNet{FeaturesPerStage: 4, MaxFeatures: 16, Norm: norm}, Seed: 1},
		arch.MethodColumnar:     {Xs: xs, Net: &GateNet{FeaturesPerStage: 10, MaxFeatures: 10, Norm: norm}, Seed: 1},
		arch.MethodConstructive: {Xs: xs, Net: &GateNet{FeaturesPerStage: 1, MaxFeatures: 5, Norm: norm}, Seed: 1},
		arch.MethodTBPTT:        {Xs: xs, Dense: &dense, Truncation: 15, Seed: 1},
		arch.MethodRTRL:         {Xs: xs, Dense: &dense, RTRL: true, Seed: 1},
		arch.MethodSnAp1:        {Xs: xs, Dense: &dense, SnAp1: true, Seed: 1},
		arch.MethodUORO:         {Xs: xs, Dense: &dense, UORO: true, Seed: 1},
	}
}

// The gate passes the correct engines of every method, and refuses each with
// every mistake that changes its engine, naming the failing check.
func TestGate(t *testing.T) {
	for m, spec := range gateSpecs() {
		t.Run(string(m), func(t *testing.T) {
			start := time.Now()
			require.NoError(t, Gate(spec))
			t.Logf("%s: correct engine passes in %v", m, time.Since(start))
			for _, in := range Injections() {
				if !in.AppliesTo(m) {
					continue
				}
				spec := spec
				spec.Inject = in
				err := Gate(spec)
				var ge *GateError
				require.True(t, errors.As(err, &ge), "%s with %s: got %v", m, in, err)
				assert.False(t, ge.Agreement.Pass())
				assert.Contains(t, err.Error(), ge.Check)
				t.Logf("%s refused: %v", in, err)
			}
		})
	}
	assert.Panics(t, func() { _ = Gate(GateSpec{Xs: gateInputs(GateLength)}) })
	assert.Panics(t, func() { _ = Gate(GateSpec{Xs: gateInputs(10), RTRL: true}) }, "too few inputs")
}

// Injections that do not change a method's engine leave its gate passing:
// AppliesTo is what ccn run relies on to refuse them as bad input instead.
func TestInjectionAppliesTo(t *testing.T) {
	assert.True(t, InjectDropRecurrentTerm.AppliesTo(arch.MethodColumnar))
	assert.False(t, InjectDropRecurrentTerm.AppliesTo(arch.MethodTBPTT))
	assert.True(t, InjectOffByOneWindow.AppliesTo(arch.MethodTBPTT))
	assert.False(t, InjectPreviousStepFeatures.AppliesTo(arch.MethodColumnar))
	assert.False(t, InjectNone.AppliesTo(arch.MethodCCN))
	spec := gateSpecs()[arch.MethodTBPTT]
	spec.Inject = InjectDropRecurrentTerm
	assert.NoError(t, Gate(spec), "T-BPTT has no recurrent trace term to drop")
	in, err := ParseInjection("drop-forget-path")
	require.NoError(t, err)
	assert.Equal(t, InjectDropForgetPath, in)
	_, err = ParseInjection("nonsense")
	assert.ErrorContains(t, err, "drop-recurrent-term")
}
