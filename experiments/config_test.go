package experiments

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveDefaults(t *testing.T) {
	tests := []struct {
		method                          arch.Method
		features, perStage, stepsPerStg int
		hidden, truncation              int
		stepSize                        float64
	}{
		{arch.MethodCCN, 16, 4, 2_500_000, 0, 0, 3e-4},
		{arch.MethodColumnar, 10, 10, 0, 0, 0, 3e-4},
		{arch.MethodConstructive, 5, 1, 1_000_000, 0, 0, 3e-4},
		{arch.MethodTBPTT, 0, 0, 0, 4, 15, 3e-4},
		{arch.MethodRTRL, 0, 0, 0, 4, 0, 3e-4},
	}
	for _, tt := range tests {
		t.Run(string(tt.method), func(t *testing.T) {
			c := RunConfig{Method: tt.method}.Resolve()
			require.NoError(t, c.Validate())
			assert.Equal(t, EnvTracePatterning, c.Env)
			assert.Equal(t, PaperSteps, c.Steps)
			assert.Equal(t, 0.99, *c.Lambda)
			assert.Equal(t, 0.9, c.Gamma)
			assert.Equal(t, 100_000, c.Window)
			assert.Equal(t, DefaultOptimizer, c.Optimizer)
			assert.Equal(t, tt.features, c.Features)
			assert.Equal(t, tt.perStage, c.FeaturesPerStage)
			assert.Equal(t, tt.stepsPerStg, c.StepsPerStage)
			assert.Equal(t, tt.hidden, c.Hidden)
			assert.Equal(t, tt.truncation, c.Truncation)
			assert.Equal(t, tt.stepSize, c.StepSize)
			assert.Equal(t, c, c.Resolve(), "Resolve is idempotent")
		})
	}
	// Shorter runs go through the same stages: steps-per-stage scales.
	c := RunConfig{Method: arch.MethodCCN, Steps: 3_000_000}.Resolve()
	assert.Equal(t, 750_000, c.StepsPerStage)
	// An explicit λ = 0 (TD(0)) is kept.
	zero := 0.0
	assert.Equal(t, 0.0, *RunConfig{Lambda: &zero}.Resolve().Lambda)
}

func TestValidateNamesTheField(t *testing.T) {
	nan := 0.0
	nan /= nan
	tests := []struct {
		name string
		cfg  RunConfig
		want string
	}{
		{"method", RunConfig{Method: "gru"}, `method "gru" unknown`},
		{"env", RunConfig{Env: "atari"}, `env "atari" unknown`},
		{"optimizer", RunConfig{Optimizer: "sgd"}, `optimizer "sgd" unknown`},
		{"steps", RunConfig{Steps: -1}, "steps -1"},
		{"step size", RunConfig{StepSize: -1}, "step-size -1"},
		{"step size NaN", RunConfig{StepSize: nan}, "step-size NaN"},
		{"gamma", RunConfig{Gamma: 1}, "gamma 1"},
		{"features per stage", RunConfig{Features: 3, FeaturesPerStage: 4}, "features-per-stage 4 is larger than features 3"},
		{"columnar stages", RunConfig{Method: arch.MethodColumnar, Features: 4, FeaturesPerStage: 2}, "must equal features"},
		{"constructive per stage", RunConfig{Method: arch.MethodConstructive, FeaturesPerStage: 2}, "must be 1 for constructive"},
		{"truncation", RunConfig{Method: arch.MethodTBPTT, Truncation: -2}, "truncation -2"},
		{"hidden on ccn", RunConfig{Hidden: 3}, "hidden does not apply"},
		{"no-out-bias on ccn", RunConfig{NoOutBias: true}, "no-out-bias applies only to methods tbptt and rtrl"},
		{"features on tbptt", RunConfig{Method: arch.MethodTBPTT, Features: 3}, "do not apply to method tbptt"},
		{"epsilon", RunConfig{Epsilon: -1}, "epsilon -1"},
		{"norm decay", RunConfig{NormDecay: 1}, "norm-decay 1"},
		{"window", RunConfig{Window: -3}, "window -3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Resolve().Validate()
			require.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestNetworkTopology(t *testing.T) {
	n, ok := RunConfig{Method: arch.MethodCCN, Features: 10, FeaturesPerStage: 4}.Resolve().Network(12)
	require.True(t, ok)
	assert.Equal(t, []int{4, 4, 2}, n.Stages, "the last stage is cut at Features")
	_, ok = RunConfig{Method: arch.MethodTBPTT}.Resolve().Network(12)
	assert.False(t, ok)
	d, ok := RunConfig{Method: arch.MethodTBPTT}.Resolve().Dense(12)
	require.True(t, ok)
	assert.Equal(t, 4, d.Hidden)
	assert.True(t, d.OutBias, "the dense LSTM has the output bias by default")
	d, _ = RunConfig{Method: arch.MethodRTRL, NoOutBias: true}.Resolve().Dense(12)
	assert.False(t, d.OutBias, "no-out-bias gives the authors' head")
}

// The dense learners carry b_out (starting at 0, in the head of the layout)
// unless no-out-bias removes it.
func TestDenseLearnerOutputBias(t *testing.T) {
	for _, method := range []arch.Method{arch.MethodTBPTT, arch.MethodRTRL} {
		l, layout, _ := RunConfig{Method: method}.Resolve().NewLearner(12)
		shape, _ := RunConfig{Method: method}.Resolve().Dense(12)
		assert.Equal(t, shape.NumParams(), l.NumParams(), method)
		assert.Equal(t, layout.HeadEnd-1, shape.IdxOutBias(), "b_out is in the head")
		assert.Zero(t, l.Params()[shape.IdxOutBias()])
		l2, _, _ := RunConfig{Method: method, NoOutBias: true}.Resolve().NewLearner(12)
		assert.Equal(t, l.NumParams()-1, l2.NumParams(), method)
	}
}
