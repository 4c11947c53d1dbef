package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
	"github.com/ccn-go/ccn/td"
)

// The float32 setting selects the float32 engine of the networks and of
// T-BPTT: its runs
// say so in their numerics, a directory of one engine refuses a run of the
// other, it is refused for methods and optimizers it does not apply to, a
// float64 run's summary does not mention it, and a float32 run follows the
// float64 run of the same seed closely.
func TestFloat32Setting(t *testing.T) {
	for _, m := range []arch.Method{arch.MethodColumnar, arch.MethodConstructive, arch.MethodCCN, arch.MethodTBPTT} {
		c := RunConfig{Method: m, Features: 3, FeaturesPerStage: 3, Steps: 3000, StepsPerStage: 1000, Window: 500, LogEvery: 500, Seed: 4}
		switch m {
		case arch.MethodColumnar:
			c.StepsPerStage = 0
		case arch.MethodConstructive:
			c.FeaturesPerStage = 0
		case arch.MethodTBPTT:
			c = RunConfig{Method: m, Hidden: 4, Truncation: 5, Steps: 3000, Window: 500, LogEvery: 500, Seed: 4}
		}
		dir64, dir32 := filepath.Join(t.TempDir(), "64"), filepath.Join(t.TempDir(), "32")
		s64, err := Run(context.Background(), c.MustResolve(), dir64, Options{})
		require.NoError(t, err)
		c.Float32 = true
		r32 := c.MustResolve()
		s32, err := Run(context.Background(), r32, dir32, Options{})
		require.NoError(t, err)
		assert.Equal(t, lanes.Numerics(), s64.Numerics)
		assert.Equal(t, lanes.Float32Numerics(lanes.Numerics()), s32.Numerics)
		assert.Equal(t, s64.Parameters, s32.Parameters)
		assert.Equal(t, s64.Stages, s32.Stages)
		j64, err := json.Marshal(s64.Config)
		require.NoError(t, err)
		j32, err := json.Marshal(s32.Config)
		require.NoError(t, err)
		assert.NotContains(t, string(j64), `"float32"`, "a float64 run's config is that of the builds before the setting")
		assert.Contains(t, string(j32), `"float32":true`)
		// Same seed, same stream: the errors agree to float32 rounding
		// amplified by 3,000 steps of learning, not bitwise.
		assert.NotEqual(t, s64.FinalError, s32.FinalError, "%s: the float32 engine ran", m)
		assert.InDelta(t, 0, math.Abs(s32.FinalError-s64.FinalError)/s64.FinalError, 1e-3, "%s: %v vs %v", m, s32.FinalError, s64.FinalError)

		// A directory holding the other engine's run is refused.
		_, err = Run(context.Background(), r32, dir64, Options{})
		var other *OtherRunError
		require.True(t, errors.As(err, &other), "%v", err)
	}

	bad := []RunConfig{
		{Method: arch.MethodRTU, Float32: true},
		{Method: arch.MethodColumnar, Features: 2, Optimizer: OptimizerAdam, Float32: true},
	}
	for i, c := range bad {
		_, err := c.Resolve()
		var ce *ConfigError
		require.True(t, errors.As(err, &ce), "%+v: %v", c, err)
		assert.Equal(t, "float32", ce.Key)
		if i == 0 {
			assert.Equal(t, "float32 does not apply to method rtu (only to ccn, columnar, constructive, tbptt)", ce.Problem)
		}
	}
}

// A step of the float32 engine's agent (the network or T-BPTT's LSTM in
// float32, TD(λ) with RMSProp32) allocates nothing, at the Atari input size.
func TestFloat32AgentAllocs(t *testing.T) {
	for _, c := range []RunConfig{
		{Method: arch.MethodCCN, Features: 6, FeaturesPerStage: 3, Float32: true},
		{Method: arch.MethodTBPTT, Hidden: 7, Truncation: 5, Float32: true},
	} {
		l, layout, opt := c.MustResolve().NewLearner32(syntheticInputs)
		a := td.New(l, layout, opt, 0.9, 0.9)
		x := make([]float64, syntheticInputs)
		for i := range x {
			x[i] = float64(i%7) / 7
		}
		a.Start(x)
		assert.Zero(t, testing.AllocsPerRun(100, func() { a.Step(x, 1) }), "%s", c.Method)
	}
}
