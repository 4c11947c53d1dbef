package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
)

// TestAutoStepsPerStage: "auto" is read from flags, YAML and JSON, written
// back as "auto", and resolves to forward.AutoFreeze with the documented
// defaults; the stage-* settings are refused without it.
func TestAutoStepsPerStage(t *testing.T) {
	s, _ := Lookup("steps-per-stage")
	var c RunConfig
	require.NoError(t, s.Parse(&c, "auto"))
	assert.Equal(t, AutoStepsPerStage, c.StepsPerStage)
	assert.Equal(t, "auto", s.Format(&c))

	yc, keys, err := DecodeFile([]byte("method: ccn\nsteps: 2000000\nsteps-per-stage: auto\nstage-threshold: 0.1\n"), false)
	require.NoError(t, err)
	assert.Equal(t, []string{"method", "steps", "steps-per-stage", "stage-threshold"}, keys)
	r, err := yc.Resolve()
	require.NoError(t, err)
	// P = 2.5M at 10M steps is 500k at 2M: min 250k, max 1M, window 2.5k.
	assert.Equal(t, forward.AutoFreeze{Min: 250_000, Max: 1_000_000, Window: 2500, Threshold: 0.1, Decay: 0.98}, r.AutoFreeze())

	b, err := json.Marshal(r)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, "auto", m["steps-per-stage"])
	back, _, err := DecodeFile(b, true)
	require.NoError(t, err)
	rb, err := back.Resolve()
	require.NoError(t, err)
	assert.Equal(t, r, rb, "summary.json's config reads back")

	fixed := RunConfig{Method: arch.MethodCCN, Steps: 2_000_000}.MustResolve()
	assert.Equal(t, forward.AutoFreeze{}, fixed.AutoFreeze(), "off for a fixed schedule")
	assert.Equal(t, 500_000, fixed.Config().StepsPerStage)

	cons := RunConfig{Method: arch.MethodConstructive, Steps: 10_000_000, StepsPerStage: AutoStepsPerStage, StageMin: 300_000, StageWindow: 1000}.MustResolve()
	assert.Equal(t, forward.AutoFreeze{Min: 300_000, Max: 2_000_000, Window: 1000, Decay: DefaultStageDecay}, cons.AutoFreeze())
}

func TestAutoStepsPerStageErrors(t *testing.T) {
	auto := AutoStepsPerStage
	for _, tt := range []struct {
		name string
		c    RunConfig
		key  string
		msg  string
	}{
		{"stage-min without auto", RunConfig{StepsPerStage: 1000, StageMin: 5}, "stage-min", "stage-min 5 applies only with steps-per-stage auto"},
		{"threshold without auto", RunConfig{StageThreshold: 0.2}, "stage-threshold", "stage-threshold 0.2 applies only with steps-per-stage auto"},
		{"max below min", RunConfig{StepsPerStage: auto, StageMin: 50, StageMax: 40}, "stage-max", "stage-max 40 is below the shortest stage 50 (stage-min)"},
		{"threshold range", RunConfig{StepsPerStage: auto, StageThreshold: 1.5}, "stage-threshold", "stage-threshold 1.5 must lie in [-1, 1]"},
		{"decay range", RunConfig{StepsPerStage: auto, StageDecay: 1}, "stage-decay", "stage-decay 1 must lie in (0, 1)"},
		{"negative", RunConfig{StepsPerStage: auto, StageWindow: -1}, "stage-window", "stage-window -1 must be at least 0 (0: the default)"},
		{"other negative steps-per-stage", RunConfig{StepsPerStage: -2}, "steps-per-stage", "steps-per-stage -2 must be at least 1"},
		{"columnar", RunConfig{Method: arch.MethodColumnar, StepsPerStage: auto}, "steps-per-stage", "steps-per-stage does not apply to method columnar"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.c.Resolve()
			var ce *ConfigError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tt.key, ce.Key)
			assert.Equal(t, tt.msg, ce.Problem)
		})
	}
	_, _, err := DecodeFile([]byte(`{"steps-per-stage": "sometimes"}`), true)
	assert.EqualError(t, err, `experiments: invalid run: steps-per-stage "sometimes" is not an integer or "auto"`)
}

// TestRunRecordsStages: summary.json records where each stage froze, at the
// fixed schedule's multiples and, under auto, within [stage-min, stage-max]
// and the same for the same seed.
func TestRunRecordsStages(t *testing.T) {
	run := func(c RunConfig) Summary {
		dir := filepath.Join(t.TempDir(), "run")
		_, err := Run(context.Background(), c.MustResolve(), dir, Options{})
		require.NoError(t, err)
		s, err := ReadSummary(dir)
		require.NoError(t, err)
		return s
	}
	fixed := run(RunConfig{Method: arch.MethodCCN, Steps: 3000, StepsPerStage: 700, Seed: 2})
	assert.Equal(t, []int{700, 1400, 2100}, fixed.Stages)

	auto := RunConfig{Method: arch.MethodCCN, Steps: 6000, StepsPerStage: AutoStepsPerStage, StageMin: 300, StageMax: 1500, StageWindow: 50, Seed: 2}
	a, b := run(auto), run(auto)
	assert.Equal(t, a.Stages, b.Stages, "deterministic per seed")
	require.NotEmpty(t, a.Stages)
	prev := 0
	for _, e := range a.Stages {
		assert.GreaterOrEqual(t, e-prev, 300)
		assert.LessOrEqual(t, e-prev, 1500)
		prev = e
	}
}
