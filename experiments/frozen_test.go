package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
)

// TestFrozenStepScale: with frozen-step-scale κ > 0 a CCN run keeps its
// frozen columns' traces and steps their parameters (with κ·α), so it
// follows the run without it bit for bit until the first stage freezes and
// departs from it after; without it the frozen parameters stay constant.
// The setting is left out of summary.json's config while 0.
func TestFrozenStepScale(t *testing.T) {
	const every = 300
	run := func(scale float64) (ys []float64, frozenAt, frozenEnd []float64) {
		r := RunConfig{Method: arch.MethodCCN, Steps: 4 * every, StepsPerStage: every, FrozenStepScale: scale, Seed: 3}.MustResolve()
		e := r.NewEnv()
		a, l := r.newAgent(e.ObservationSize())
		net := l.(*forward.Network)
		x := make([]float64, e.ObservationSize())
		e.Next(x)
		ys = append(ys, a.Start(x))
		for step := 1; step < 2*every; step++ {
			c, _ := e.Next(x)
			y, _ := a.Step(x, c)
			ys = append(ys, y)
			if step == every {
				frozenAt = slices.Clone(net.Frozen())
			}
		}
		return ys, frozenAt, slices.Clone(net.Frozen())
	}
	plainY, plainAt, plainEnd := run(0)
	slowY, slowAt, slowEnd := run(0.1)
	require.NotEmpty(t, plainAt)
	for i := 0; i <= every; i++ {
		require.Equal(t, math.Float64bits(plainY[i]), math.Float64bits(slowY[i]), "step %d, before any stage froze", i)
	}
	assert.NotEqual(t, plainY[len(plainY)-1], slowY[len(slowY)-1], "the frozen stage learns")
	assert.Equal(t, plainAt, plainEnd[:len(plainAt)], "κ = 0: frozen parameters stay constant")
	assert.NotEqual(t, slowAt, slowEnd[:len(slowAt)], "κ = 0.1: frozen parameters move")

	b, err := json.Marshal(RunConfig{Method: arch.MethodCCN}.MustResolve())
	require.NoError(t, err)
	assert.NotContains(t, string(b), "frozen-step-scale")
	b, err = json.Marshal(RunConfig{Method: arch.MethodCCN, FrozenStepScale: 0.01}.MustResolve())
	require.NoError(t, err)
	assert.Contains(t, string(b), `"frozen-step-scale":0.01`)
}

// Probe calls its probe at every multiple of every up to the run's steps,
// with the run's learner, and stops at the probe's first error.
func TestProbe(t *testing.T) {
	r := RunConfig{Method: arch.MethodCCN, Steps: 1000, Seed: 1}.MustResolve()
	var at []int
	require.NoError(t, Probe(context.Background(), r, 300, func(steps int, l any) error {
		at = append(at, steps)
		assert.IsType(t, &forward.Network{}, l)
		return nil
	}))
	assert.Equal(t, []int{300, 600, 900}, at)
	stop := errors.New("stop")
	at = nil
	err := Probe(context.Background(), r, 300, func(steps int, _ any) error {
		at = append(at, steps)
		return stop
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, []int{300}, at)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, Probe(ctx, r, 300, func(int, any) error { return nil }), context.Canceled)
}

func TestFrozenStepScaleErrors(t *testing.T) {
	for _, tt := range []struct {
		c   RunConfig
		msg string
	}{
		{RunConfig{Method: arch.MethodCCN, FrozenStepScale: -0.1}, "frozen-step-scale -0.1 must lie in [0, 1]"},
		{RunConfig{Method: arch.MethodCCN, FrozenStepScale: 1.5}, "frozen-step-scale 1.5 must lie in [0, 1]"},
		{RunConfig{Method: arch.MethodCCN, FrozenStepScale: 0.1, Float32: true}, "frozen-step-scale 0.1 needs the float64 engine (not float32)"},
		{RunConfig{Method: arch.MethodColumnar, FrozenStepScale: 0.1}, "frozen-step-scale does not apply to method columnar"},
	} {
		_, err := tt.c.Resolve()
		var ce *ConfigError
		require.ErrorAs(t, err, &ce, tt.msg)
		assert.Equal(t, tt.msg, ce.Problem)
	}
	_, err := RunConfig{Method: arch.MethodConstructive, FrozenStepScale: 1}.Resolve()
	assert.NoError(t, err)
}
