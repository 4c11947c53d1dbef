package experiments

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/td"
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
			r, err := RunConfig{Method: tt.method}.Resolve()
			require.NoError(t, err)
			c := r.Config()
			assert.Equal(t, EnvTracePatterning, c.Env)
			assert.Equal(t, PaperSteps, c.Steps)
			assert.Equal(t, 0.99, *c.Lambda)
			assert.Equal(t, 0.9, c.Gamma)
			assert.Equal(t, 100_000, c.Window)
			assert.Equal(t, 10_000, c.LogEvery)
			assert.Equal(t, DefaultOptimizer, c.Optimizer)
			assert.Equal(t, tt.features, c.Features)
			assert.Equal(t, tt.perStage, c.FeaturesPerStage)
			assert.Equal(t, tt.stepsPerStg, c.StepsPerStage)
			assert.Equal(t, tt.hidden, c.Hidden)
			assert.Equal(t, tt.truncation, c.Truncation)
			assert.Equal(t, tt.stepSize, c.StepSize)
			if tt.method.Networked() {
				assert.Equal(t, arch.DefaultNormEpsilon, c.Epsilon)
				assert.Equal(t, arch.DefaultNormDecay, c.NormDecay)
			} else {
				assert.Zero(t, c.Epsilon)
				assert.Zero(t, c.NormDecay)
			}
			again, err := c.Resolve()
			require.NoError(t, err)
			assert.Equal(t, r, again, "Resolve is idempotent")
		})
	}
	// Shorter runs go through the same stages: steps-per-stage scales.
	r := RunConfig{Method: arch.MethodCCN, Steps: 3_000_000}.MustResolve()
	assert.Equal(t, 750_000, r.Config().StepsPerStage)
	// An explicit λ = 0 (TD(0)) is kept.
	zero := 0.0
	assert.Equal(t, 0.0, *RunConfig{Lambda: &zero}.MustResolve().Config().Lambda)
	// The empty configuration is CCN's.
	assert.Equal(t, arch.MethodCCN, RunConfig{}.MustResolve().Config().Method)
}

func TestResolveNamesTheSetting(t *testing.T) {
	tests := []struct {
		name string
		cfg  RunConfig
		key  string
		want string
	}{
		{"method", RunConfig{Method: "gru"}, "method", "method gru unknown"},
		{"env", RunConfig{Env: "pong"}, "env", "env pong unknown"},
		{"optimizer", RunConfig{Optimizer: "sgd"}, "optimizer", "optimizer sgd unknown"},
		{"steps", RunConfig{Steps: -1}, "steps", "steps -1 must be at least 1"},
		{"step size", RunConfig{StepSize: -1}, "step-size", "step-size -1 must be a positive number"},
		{"step size NaN", RunConfig{StepSize: math.NaN()}, "step-size", "step-size NaN"},
		{"step size Inf", RunConfig{StepSize: math.Inf(1)}, "step-size", "step-size +Inf"},
		{"lambda", RunConfig{Lambda: new(1.5)}, "lambda", "lambda 1.5 must lie in [0, 1]"},
		{"gamma", RunConfig{Gamma: 1}, "gamma", "gamma 1 must lie in (0, 1)"},
		{"features per stage", RunConfig{Features: 3, FeaturesPerStage: 4}, "features-per-stage", "features-per-stage 4 is larger than features 3"},
		{"columnar stages", RunConfig{Method: arch.MethodColumnar, Features: 4, FeaturesPerStage: 2}, "features-per-stage", "must equal features"},
		{"constructive per stage", RunConfig{Method: arch.MethodConstructive, FeaturesPerStage: 2}, "features-per-stage", "must be 1 for constructive"},
		{"truncation", RunConfig{Method: arch.MethodTBPTT, Truncation: -2}, "truncation", "truncation -2"},
		{"hidden on ccn", RunConfig{Hidden: 3}, "hidden", "hidden does not apply to method ccn"},
		{"features on tbptt", RunConfig{Method: arch.MethodTBPTT, Features: 3}, "features", "features does not apply to method tbptt"},
		{"no-out-bias on ccn", RunConfig{NoOutBias: true}, "no-out-bias", "no-out-bias does not apply to method ccn"},
		{"fan-in-init on columnar", RunConfig{Method: arch.MethodColumnar, FanInInit: true}, "fan-in-init", "does not apply to method columnar"},
		{"full-output-step with adam", RunConfig{Method: arch.MethodTBPTT, FullOutputStep: true, Optimizer: OptimizerAdam}, "full-output-step", "rmsprop only"},
		{"truncation on rtrl", RunConfig{Method: arch.MethodRTRL, Truncation: 3}, "truncation", "truncation does not apply to method rtrl"},
		{"steps per stage on columnar", RunConfig{Method: arch.MethodColumnar, StepsPerStage: 3}, "steps-per-stage", "does not apply to method columnar"},
		{"no-norm on tbptt", RunConfig{Method: arch.MethodTBPTT, NoNorm: true}, "no-norm", "does not apply"},
		{"epsilon", RunConfig{Epsilon: -1}, "epsilon", "epsilon -1"},
		{"norm decay", RunConfig{NormDecay: 1}, "norm-decay", "norm-decay 1"},
		{"window", RunConfig{Window: -3}, "window", "window -3"},
		{"log-every", RunConfig{LogEvery: -3}, "log-every", "log-every -3"},
		{"isi-min negative", RunConfig{ISIMin: -1}, "isi-min", "isi-min -1 must not be negative"},
		{"isi-min above the paper's maximum", RunConfig{ISIMin: 40}, "isi-min", "isi-min 40 is above isi-max 36"},
		{"isi-max below isi-min", RunConfig{ISIMin: 10, ISIMax: 8, ITIMin: 20}, "isi-min", "isi-min 10 is above isi-max 8"},
		{"isi-max alone below the paper's minimum", RunConfig{ISIMax: 20}, "isi-max", "isi-max 20 is below isi-min 24"},
		{"trials not separated", RunConfig{ISIMin: 90, ISIMax: 100}, "isi-max", "isi-max 100 is above iti-min 80: trials would not be separated"},
		{"iti-min too short", RunConfig{ITIMin: 30}, "iti-min", "iti-min 30 is below isi-max 36: trials would not be separated"},
		{"iti-min above iti-max", RunConfig{ITIMin: 130}, "iti-min", "iti-min 130 is above iti-max 120"},
		{"iti-max below iti-min", RunConfig{ITIMax: 70}, "iti-max", "iti-max 70 is below iti-min 80"},
		{"distractors negative", RunConfig{Distractors: -2}, "distractors", "distractors -2 must not be negative"},
		{"isi on a pixel game", RunConfig{Env: "breakout", ISIMin: 8}, "isi-min", "isi-min 8 does not apply to env breakout"},
		{"distractors on a pixel game", RunConfig{Env: "breakout", Distractors: 2}, "distractors", "does not apply to env breakout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.cfg.Resolve()
			require.ErrorIs(t, err, ErrInvalid)
			var ce *ConfigError
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, tt.key, ce.Key)
			assert.Contains(t, ce.Problem, tt.want)
		})
	}
}

func TestNetworkTopology(t *testing.T) {
	n, ok := RunConfig{Method: arch.MethodCCN, Features: 10, FeaturesPerStage: 4}.MustResolve().Network(12)
	require.True(t, ok)
	assert.Equal(t, []int{4, 4, 2}, n.Stages, "the last stage is cut at Features")
	_, ok = RunConfig{Method: arch.MethodTBPTT}.MustResolve().Network(12)
	assert.False(t, ok)
	d, ok := RunConfig{Method: arch.MethodTBPTT}.MustResolve().Dense(12)
	require.True(t, ok)
	assert.Equal(t, 4, d.Hidden)
	assert.True(t, d.OutBias, "the dense LSTM has the output bias by default")
	d, _ = RunConfig{Method: arch.MethodRTRL, NoOutBias: true}.MustResolve().Dense(12)
	assert.False(t, d.OutBias, "no-out-bias gives the authors' head")
}

// The dense learners carry b_out (starting at 0, in the head of the layout)
// unless no-out-bias removes it.
func TestDenseLearnerOutputBias(t *testing.T) {
	for _, method := range []arch.Method{arch.MethodTBPTT, arch.MethodRTRL} {
		l, layout, _ := RunConfig{Method: method}.MustResolve().NewLearner(12)
		shape, _ := RunConfig{Method: method}.MustResolve().Dense(12)
		assert.Equal(t, shape.NumParams(), l.NumParams(), method)
		assert.Equal(t, layout.HeadEnd-1, shape.IdxOutBias(), "b_out is in the head")
		assert.Zero(t, l.Params()[shape.IdxOutBias()])
		l2, _, _ := RunConfig{Method: method, NoOutBias: true}.MustResolve().NewLearner(12)
		assert.Equal(t, l.NumParams()-1, l2.NumParams(), method)
	}
}

// The dense LSTM's cell parameters start from U(±0.1), or from U(±1/√H)
// under fan-in-init; full-output-step reaches the optimizer.
func TestDenseLearnerAuthorsSetup(t *testing.T) {
	for _, tt := range []struct {
		cfg   RunConfig
		bound float64
	}{
		{RunConfig{Method: arch.MethodTBPTT, Hidden: 13}, 0.1},
		{RunConfig{Method: arch.MethodTBPTT, Hidden: 13, FanInInit: true}, 1 / math.Sqrt(13)},
		{RunConfig{Method: arch.MethodRTRL, Hidden: 2, FanInInit: true}, 1 / math.Sqrt(2)},
	} {
		r := tt.cfg.MustResolve()
		l, _, _ := r.NewLearner(12)
		shape, _ := r.Dense(12)
		largest := 0.0
		for _, p := range l.Params()[:shape.NumCellParams()] {
			largest = max(largest, math.Abs(p))
		}
		assert.LessOrEqual(t, largest, tt.bound, "%+v", tt.cfg)
		assert.Greater(t, largest, 0.9*tt.bound, "%+v: the draws should reach near the bound", tt.cfg)
	}
	for _, full := range []bool{false, true} {
		_, _, opt := RunConfig{Method: arch.MethodTBPTT, FullOutputStep: full}.MustResolve().NewLearner(12)
		assert.Equal(t, full, opt.(*td.RMSProp).FullHeadStep)
	}
}

// Every field of RunConfig is a row of Settings, and every row a distinct
// field: a field without a row would be neither a flag nor a key.
func TestSettingsCoverRunConfig(t *testing.T) {
	var c RunConfig
	seen := map[any]string{}
	for _, s := range Settings {
		p := s.Field(&c)
		_, dup := seen[p]
		assert.False(t, dup, "%s and %s share a field", s.Key, seen[p])
		seen[p] = s.Key
		assert.NotEmpty(t, s.Help, s.Key)
	}
	assert.Equal(t, len(Settings), reflectFields(c), "one row per RunConfig field")
}

func TestRunConfigJSONRoundTrip(t *testing.T) {
	r := RunConfig{Method: arch.MethodTBPTT, Steps: 1234, Seed: 7, Lambda: new(0.0)}.MustResolve()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"env":"trace-patterning","stream":"","method":"tbptt","steps":1234,"seed":7,"step-size":0.0003,"lambda":0,"gamma":0.9,
		"isi-min":0,"isi-max":0,"iti-min":0,"iti-max":0,"distractors":0,"features":0,"features-per-stage":0,"steps-per-stage":0,"stage-min":0,"stage-max":0,"stage-window":0,"stage-threshold":0,"stage-decay":0,"hidden":4,"no-out-bias":false,"fan-in-init":false,"full-output-step":false,"truncation":15,"epsilon":0,"norm-decay":0,
		"no-norm":false,"optimizer":"rmsprop","window":100000,"log-every":10000}`, string(b))
	var back Resolved
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, r, back)
	var c RunConfig
	err = json.Unmarshal([]byte(`{"stepz": 3}`), &c)
	var ce *ConfigError
	require.True(t, errors.As(err, &ce), "%v", err)
	assert.Equal(t, "stepz", ce.Key)
}

func TestDecodeFile(t *testing.T) {
	for _, tt := range []struct {
		name   string
		json   bool
		text   string
		key    string // "" for no error
		steps  int
		window int
	}{
		{"yaml", false, "steps: 1e6\nwindow: 500\n", "", 1_000_000, 500},
		{"json", true, `{"steps": 2.5e6, "window": 500}`, "", 2_500_000, 500},
		{"yaml zero", false, "steps: 0\n", "steps", 0, 0},
		{"json zero", true, `{"window": 0}`, "window", 0, 0},
		{"yaml fraction", false, "steps: 1.5\n", "steps", 0, 0},
		{"json unknown", true, `{"stepz": 1}`, "stepz", 0, 0},
		{"yaml unknown", false, "stepz: 1\n", "stepz", 0, 0},
		{"yaml type", false, "gamma: high\n", "gamma", 0, 0},
		{"json type", true, `{"method": 3}`, "method", 0, 0},
		{"empty yaml", false, "", "", 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := DecodeFile([]byte(tt.text), tt.json)
			if tt.key == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.steps, c.Steps)
				assert.Equal(t, tt.window, c.Window)
				return
			}
			var ce *ConfigError
			require.True(t, errors.As(err, &ce), "%v", err)
			assert.Equal(t, tt.key, ce.Key)
		})
	}
}

func TestDefaultText(t *testing.T) {
	s, _ := Lookup("step-size")
	assert.Equal(t, "0.0003", s.DefaultText())
	s, _ = Lookup("features")
	assert.Equal(t, "ccn 16, columnar 10, constructive 5", s.DefaultText())
	s, _ = Lookup("gamma")
	assert.Equal(t, "0.9", s.DefaultText())
	s, _ = Lookup("hidden")
	assert.Equal(t, "4", s.DefaultText())
	s, _ = Lookup("seed")
	assert.Equal(t, "", s.DefaultText())
}

func TestFirstDifference(t *testing.T) {
	a := RunConfig{Method: arch.MethodCCN, Steps: 100}.MustResolve().Config()
	b := RunConfig{Method: arch.MethodColumnar, Steps: 100}.MustResolve().Config()
	key, va, vb, ok := FirstDifference(a, b)
	require.True(t, ok)
	assert.Equal(t, []string{"method", "ccn", "columnar"}, []string{key, va, vb})
	c := a
	c.Window = 7
	key, _, _, ok = FirstDifference(a, c)
	assert.True(t, ok)
	assert.Equal(t, "window", key)
	_, _, _, ok = FirstDifference(a, a)
	assert.False(t, ok)
}

func reflectFields(c RunConfig) int { return reflect.TypeOf(c).NumField() }

// TestTraceSettings: the trace patterning settings reach the stream (its
// intervals, measured on the stream itself, and its observation length),
// zero is the paper's task, and a summary.json of another environment, which
// writes them as 0, reads back.
func TestTraceSettings(t *testing.T) {
	r := RunConfig{ISIMin: 48, ISIMax: 72, ITIMin: 160, ITIMax: 240, Distractors: 2, Steps: 200_000}.MustResolve()
	assert.Equal(t, env.DistractorStart+2, r.Inputs())
	e := r.NewEnv()
	require.Equal(t, r.Inputs(), e.ObservationSize())
	x := make([]float64, e.ObservationSize())
	lastCS, lastUS := -1, -1
	minISI, maxISI, minITI := math.MaxInt, 0, math.MaxInt
	for step := range 200_000 {
		e.Next(x)
		if x[0]+x[1]+x[2]+x[3]+x[4]+x[5] > 0 {
			if lastUS >= 0 && lastUS > lastCS {
				minITI = min(minITI, step-lastUS)
			}
			lastCS = step
		}
		if x[env.USIndex] > 0 {
			minISI, maxISI = min(minISI, step-lastCS), max(maxISI, step-lastCS)
			lastUS = step
		}
	}
	assert.Equal(t, [2]int{48, 72}, [2]int{minISI, maxISI}, "the ISI range, CS to US")
	assert.GreaterOrEqual(t, minITI, 160, "no CS within iti-min of a US")
	assert.Equal(t, env.DefaultTraceConfig().WithDefaults(), RunConfig{}.MustResolve().Trace(), "zero settings are the paper's task")

	summary := []byte(`{"config":{"env":"breakout","method":"ccn","isi-min":0,"isi-max":0,"iti-min":0,"iti-max":0,"distractors":0}}`)
	c, _, err := DecodeFile(summary, true)
	require.NoError(t, err)
	_, err = c.Resolve()
	require.NoError(t, err)
}
