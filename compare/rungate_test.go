package compare

import (
	"context"
	"errors"
	"image/color"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
)

// The run's gate checks the engines of the run's method, at its sizes, on
// the run's own stream after a warm-up drawn from its seed.
func TestRunGateSpec(t *testing.T) {
	tests := []struct {
		name   string
		c      experiments.RunConfig
		steps  int
		family string
	}{
		{"ccn", experiments.RunConfig{Method: arch.MethodCCN, Features: 4, FeaturesPerStage: 2}, GateLength, "net"},
		{"columnar", experiments.RunConfig{Method: arch.MethodColumnar, Features: 3}, GateLength, "net"},
		{"tbptt short window", experiments.RunConfig{Method: arch.MethodTBPTT, Hidden: 2, Truncation: 5}, GateLength, "tbptt"},
		{"tbptt long window", experiments.RunConfig{Method: arch.MethodTBPTT, Hidden: 2, Truncation: 80}, 160, "tbptt"},
		{"rtrl", experiments.RunConfig{Method: arch.MethodRTRL, Hidden: 2}, GateLength, "rtrl"},
		{"snap1", experiments.RunConfig{Method: arch.MethodSnAp1, Hidden: 2}, GateLength, "snap1"},
		{"uoro", experiments.RunConfig{Method: arch.MethodUORO, Hidden: 2}, GateLength, "uoro"},
		{"linear", experiments.RunConfig{Method: arch.MethodLinear}, GateLength, "linear"},
		{"rtu", experiments.RunConfig{Method: arch.MethodRTU, Hidden: 2}, GateLength, "rtu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Seed = 7
			r := tt.c.MustResolve()
			spec, ok := RunGateSpec(r, InjectDropRecurrentTerm)
			require.True(t, ok)
			assert.Len(t, spec.Xs, tt.steps)
			assert.Len(t, spec.Xs[0], r.Inputs())
			assert.Equal(t, uint64(7), spec.Seed)
			assert.Equal(t, InjectDropRecurrentTerm, spec.Inject)
			got := map[string]bool{
				"net": spec.Net != nil, "linear": spec.Linear != nil, "rtu": spec.RTU != nil,
				"tbptt": spec.Dense != nil && spec.Truncation == r.Config().Truncation && spec.Truncation > 0,
				"rtrl":  spec.Dense != nil && spec.RTRL, "snap1": spec.Dense != nil && spec.SnAp1, "uoro": spec.Dense != nil && spec.UORO,
			}
			for f, set := range got {
				assert.Equal(t, f == tt.family, set, "%s", f)
			}
			if spec.Net != nil {
				c := r.Config()
				assert.Equal(t, GateNet{FeaturesPerStage: c.FeaturesPerStage, MaxFeatures: c.Features, Norm: spec.Net.Norm, StepSize: c.StepSize}, *spec.Net)
				assert.True(t, spec.Net.Norm.Enabled, "the run's normalization")
			}

			stream := streamInputs(r.NewEnv(), 0, GateWarmup+len(spec.Xs))
			warmup := -1
			for w := range GateWarmup {
				if reflect.DeepEqual(stream[w:w+len(spec.Xs)], spec.Xs) {
					warmup = w
					break
				}
			}
			assert.Greater(t, warmup, 0, "the stretch lies in the run's own stream, after a warm-up of fewer than GateWarmup steps")

			again, _ := RunGateSpec(r, InjectNone)
			assert.Equal(t, spec.Xs, again.Xs, "the seed fixes the stretch")
			other, _ := RunGateSpec(r.WithSeed(8), InjectNone)
			assert.NotEqual(t, spec.Xs, other.Xs, "another seed, another warm-up")
		})
	}
}

// A method the registry exempts passes the gate unchecked.
func TestRunGateExempt(t *testing.T) {
	defer arch.Register(arch.MethodInfo{
		Method: "exempt-toy", Family: arch.FamilyOther, Label: "Toy", Color: color.RGBA{A: 0xFF},
		Gate: arch.GateExempt, Exempt: "a test",
		New: func(s arch.Spec) (arch.Engine, arch.Head) { panic("not built by the gate") },
		Ops: func(s arch.Spec) (int, bool) { return 0, false },
	})()
	r := experiments.RunConfig{Method: "exempt-toy"}.MustResolve()
	_, ok := RunGateSpec(r, InjectNone)
	assert.False(t, ok)
	assert.NoError(t, RunGate(r))
}

// experiments.Run with RunGate, as a library user runs it, passes a correct
// engine and refuses an injected mistake before anything is written.
func TestRunGateInExperimentsRun(t *testing.T) {
	r := experiments.RunConfig{Method: arch.MethodColumnar, Features: 2, Steps: 100, Window: 50, LogEvery: 50}.MustResolve()
	dir := filepath.Join(t.TempDir(), "run")
	_, err := experiments.Run(context.Background(), r, dir, experiments.Options{Gate: RunGate})
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, experiments.SummaryFile))

	bad := filepath.Join(t.TempDir(), "bad")
	gate := func(r experiments.Resolved) error { return RunGateInjected(r, InjectDropRecurrentTerm) }
	_, err = experiments.Run(context.Background(), r, bad, experiments.Options{Gate: gate})
	var ge *GateError
	require.True(t, errors.As(err, &ge), "got %v", err)
	assert.Contains(t, ge.Check, "columnar 2")
	assert.NoDirExists(t, bad)
}

// CheckRun refuses an injection that cannot change the run's engine, and
// RunGateInjected panics on one.
func TestInjectionCheckRun(t *testing.T) {
	assert.NoError(t, InjectNone.CheckRun(arch.MethodCCN))
	assert.NoError(t, InjectOffByOneWindow.CheckRun(arch.MethodTBPTT))
	assert.ErrorContains(t, InjectOffByOneWindow.CheckRun(arch.MethodColumnar), "does not change the engine of method columnar")
	assert.ErrorContains(t, InjectAsymmetricUORO.CheckRun(arch.MethodUORO), "statistical rows")
	r := experiments.RunConfig{Method: arch.MethodColumnar, Features: 2}.MustResolve()
	assert.Panics(t, func() { _ = RunGateInjected(r, InjectOffByOneWindow) })
}
