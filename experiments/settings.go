package experiments

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/forward"
)

// Setting is one run setting: a row of the table Settings, from which the
// flags of `ccn run`, the keys of run files (JSON and YAML), the merging of a
// file with flags, the arguments of sweep task files, the "config" object of
// summary.json and the help text are all derived.
type Setting struct {
	// Key is the flag name and the file key.
	Key string
	// Unit of the value, "" for none.
	Unit string
	// Help is the one-line description shown by `ccn run -h`.
	Help string
	// For reports whether the setting applies to a method; nil means every
	// method. A setting that does not apply must be left zero.
	For func(m arch.Method) bool
	// Default is the value a zero setting takes, given c with every setting
	// above this row already resolved (so a default may depend on the
	// environment, the method, the steps …). nil: zero is the value.
	// Settings with a Default refuse an explicit 0 in flags and files, where
	// it would be silently replaced.
	Default func(c *RunConfig) any
	// Check returns "" if the resolved value is usable, else what is wrong
	// with it ("must be at least 1"); nil: every value is.
	Check func(c *RunConfig) string
	// Field returns a pointer to the setting's field in c: *int, *uint64,
	// *float64, **float64 (nil: unset), *string, *arch.Method or *bool.
	Field func(c *RunConfig) any
	// Words names special values of an int setting ("auto" for
	// AutoStepsPerStage): Parse accepts them, Format and the JSON of
	// summary.json write them.
	Words map[string]int
	// OmitZero leaves the setting out of the "config" object of
	// summary.json (and of every JSON encoding of a RunConfig) while it is
	// zero, so that adding it changes no existing run's files.
	OmitZero bool
	// ListMethods names the methods the setting applies to when it is
	// refused for another (an engine that only some methods have).
	ListMethods bool
}

// appliesTo lists the methods s applies to, in the order of arch.Methods.
func (s Setting) appliesTo() string {
	var out []string
	for _, m := range arch.Methods() {
		if s.Applies(m) {
			out = append(out, string(m))
		}
	}
	return strings.Join(out, ", ")
}

// word returns the name of value v of s, if it has one.
func (s Setting) word(v int) (string, bool) {
	for w, x := range s.Words {
		if x == v {
			return w, true
		}
	}
	return "", false
}

// withStages is For of the settings of the stage schedule: the networks that
// add their features over more than one stage (arch.MethodInfo.Staged).
func withStages(m arch.Method) bool {
	info, _ := arch.Info(m)
	return info.Staged()
}

// takes returns a For of the settings that size the methods that take z
// (arch.MethodInfo.Sizes).
func takes(zs ...arch.Size) func(arch.Method) bool {
	return func(m arch.Method) bool {
		info, _ := arch.Info(m)
		return slices.ContainsFunc(zs, info.Takes)
	}
}

// fixedPerStage is the features per stage of a network whose stages are not
// a setting (Columnar: all of them; Constructive: 1), by the registry's
// PerStage, and whether m is one.
func fixedPerStage(m arch.Method, features int) (int, bool) {
	info, _ := arch.Info(m)
	if info.PerStage == nil || info.Takes(arch.SizePerStage) {
		return 0, false
	}
	return info.PerStage(arch.Spec{Features: features}), true
}

// paperStepsPerStage is the paper's steps-per-stage at PaperSteps.
var paperStepsPerStage = map[arch.Method]int{arch.MethodCCN: 2_500_000, arch.MethodConstructive: 1_000_000}

// AutoStepsPerStage is the value of RunConfig.StepsPerStage written "auto":
// a stage freezes when its features have converged (forward.AutoFreeze),
// under the settings stage-min, stage-max, stage-window, stage-threshold and
// stage-decay, which must be left zero otherwise.
const AutoStepsPerStage = -1

// DefaultStageDecay is the decay β of the mean cosine of the auto schedule
// when stage-decay is 0: about the last fifty measurements count (half of
// stage-min at the default stage-window).
const DefaultStageDecay = 0.98

// autoOnly returns the Check of a stage-* setting: unset unless
// steps-per-stage is auto (set reports whether it is set), and then check.
func autoOnly(set func(c *RunConfig) bool, check func(c *RunConfig) string) func(c *RunConfig) string {
	return func(c *RunConfig) string {
		if c.StepsPerStage != AutoStepsPerStage {
			if set(c) {
				return "applies only with steps-per-stage auto"
			}
			return ""
		}
		return check(c)
	}
}

func nonNegative(v int) string {
	if v < 0 {
		return "must be at least 0 (0: the default)"
	}
	return ""
}

// networked is For of the settings of Columnar, Constructive and CCN.
func networked(m arch.Method) bool { return m.Networked() }

// float32Methods is For of the float32 setting: the methods with a float32
// engine, the networks (forward.NetworkOf[float32]) and T-BPTT
// (backward.TBPTT32).
func float32Methods(m arch.Method) bool { return m.Networked() || m == arch.MethodTBPTT }

// dense is For of the settings of the dense LSTM methods (T-BPTT, RTRL,
// SnAp-1, UORO).
func dense(m arch.Method) bool { return m.Dense() }

// normalized is For of the normalization settings: the networks' features,
// the linear control's inputs.
func normalized(m arch.Method) bool { return m.Normalized() }

// withHidden is For of the hidden size: the dense LSTM methods and the RTU
// layers (trace units).
var withHidden = takes(arch.SizeHidden, arch.SizeTraceUnits)

// perMethod returns a Default that looks the method up in d.
func perMethod[T any](d map[arch.Method]T) func(c *RunConfig) any {
	return func(c *RunConfig) any { return d[c.Method] }
}

func constant(v any) func(*RunConfig) any { return func(*RunConfig) any { return v } }

func atLeast1(v func(c *RunConfig) int) func(c *RunConfig) string {
	return func(c *RunConfig) string {
		if v(c) < 1 {
			return "must be at least 1"
		}
		return ""
	}
}

func positive(v func(c *RunConfig) float64) func(c *RunConfig) string {
	return func(c *RunConfig) string {
		if x := v(c); !(x > 0) || math.IsInf(x, 0) {
			return "must be a positive number"
		}
		return ""
	}
}

func openUnit(v func(c *RunConfig) float64) func(c *RunConfig) string {
	return func(c *RunConfig) string {
		if x := v(c); !(x > 0 && x < 1) {
			return "must lie in (0, 1)"
		}
		return ""
	}
}

// scaledSteps returns a Default of the paper's value at PaperSteps scaled by
// Steps/PaperSteps (at least 1), so that a shorter run goes through the same
// stages.
func scaledSteps(paper map[arch.Method]int) func(c *RunConfig) any {
	return func(c *RunConfig) any {
		return max(1, int(math.Round(float64(paper[c.Method])*float64(c.Steps)/PaperSteps)))
	}
}

// Settings is the table of run settings, in the order of summary.json.
// Adding a setting is adding a row here and a field to RunConfig (see
// docs/extending.md).
var Settings = []Setting{
	{Key: "env", Help: "environment: " + strings.Join(catalog.Names(), ", ") + " (ccn envs)",
		Default: constant(EnvTracePatterning),
		Check: func(c *RunConfig) string {
			if _, err := catalog.Lookup(c.Env); err != nil {
				return "unknown (want " + strings.Join(catalog.Names(), ", ") + ")"
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.Env }},
	{Key: "stream", Help: "recorded ExperienceBuffer file of env " + catalog.Atari + ", needed by it and by no other",
		Check: func(c *RunConfig) string {
			info, err := catalog.Lookup(c.Env)
			switch {
			case err != nil:
				return ""
			case info.Stream && c.Stream == "":
				return "missing: env " + c.Env + " reads a recorded file (--stream FILE)"
			case !info.Stream && c.Stream != "":
				return "does not apply to env " + c.Env
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.Stream }},
	{Key: "method", Help: "learner: " + methodList(),
		Default: constant(DefaultMethod),
		Check: func(c *RunConfig) string {
			if !c.Method.Known() {
				return "unknown (want " + methodList() + ")"
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.Method }},
	{Key: "steps", Unit: "steps", Help: "steps to learn",
		Default: constant(PaperSteps),
		Check:   atLeast1(func(c *RunConfig) int { return c.Steps }),
		Field:   func(c *RunConfig) any { return &c.Steps }},
	{Key: "seed", Help: "seed of the environment and the initialization",
		Field: func(c *RunConfig) any { return &c.Seed }},
	{Key: "step-size", Help: "step size α",
		Default: constant(DefaultStepSize),
		Check:   positive(func(c *RunConfig) float64 { return c.StepSize }),
		Field:   func(c *RunConfig) any { return &c.StepSize }},
	{Key: "lambda", Help: "trace decay λ in [0, 1]",
		Default: constant(0.99),
		Check: func(c *RunConfig) string {
			if c.Lambda == nil || !(*c.Lambda >= 0 && *c.Lambda <= 1) {
				return "must lie in [0, 1]"
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.Lambda }},
	{Key: "gamma", Help: "discount γ in (0, 1), by default the environment's (ccn envs)",
		Default: func(c *RunConfig) any {
			info, err := catalog.Lookup(c.Env)
			if err != nil {
				return math.NaN() // the env row reports the problem first
			}
			return info.Gamma
		},
		Check: openUnit(func(c *RunConfig) float64 { return c.Gamma }),
		Field: func(c *RunConfig) any { return &c.Gamma }},
	{Key: "isi-min", Unit: "steps", Help: traceHelp("smallest inter-stimulus interval, CS to US", env.DefaultTraceConfig().ISIMin),
		Check: traceSetting(func(c *RunConfig) int { return c.ISIMin }, func(t env.TraceConfig) string {
			if t.ISIMin > t.ISIMax {
				return fmt.Sprintf("is above isi-max %d", t.ISIMax)
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.ISIMin }},
	{Key: "isi-max", Unit: "steps", Help: traceHelp("largest inter-stimulus interval", env.DefaultTraceConfig().ISIMax),
		Check: traceSetting(func(c *RunConfig) int { return c.ISIMax }, func(t env.TraceConfig) string {
			switch {
			case t.ISIMax < t.ISIMin:
				return fmt.Sprintf("is below isi-min %d", t.ISIMin)
			case t.ISIMax > t.ITIMin:
				return fmt.Sprintf("is above iti-min %d: trials would not be separated (want iti-min ≥ isi-max)", t.ITIMin)
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.ISIMax }},
	{Key: "iti-min", Unit: "steps", Help: traceHelp("smallest inter-trial interval, US to the next CS, at least isi-max", env.DefaultTraceConfig().ITIMin),
		Check: traceSetting(func(c *RunConfig) int { return c.ITIMin }, func(t env.TraceConfig) string {
			switch {
			case t.ITIMin < t.ISIMax:
				return fmt.Sprintf("is below isi-max %d: trials would not be separated (want iti-min ≥ isi-max)", t.ISIMax)
			case t.ITIMin > t.ITIMax:
				return fmt.Sprintf("is above iti-max %d", t.ITIMax)
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.ITIMin }},
	{Key: "iti-max", Unit: "steps", Help: traceHelp("largest inter-trial interval", env.DefaultTraceConfig().ITIMax),
		Check: traceSetting(func(c *RunConfig) int { return c.ITIMax }, func(t env.TraceConfig) string {
			if t.ITIMax < t.ITIMin {
				return fmt.Sprintf("is below iti-min %d", t.ITIMin)
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.ITIMax }},
	{Key: "distractors", Unit: "bits", Help: traceHelp("number of distractor bits", env.DefaultTraceConfig().Distractors),
		Check: traceSetting(func(c *RunConfig) int { return c.Distractors }, nil),
		Field: func(c *RunConfig) any { return &c.Distractors }},
	{Key: "features", Unit: "columns", Help: "total number of features", For: networked,
		// Columnar: the paper's text and Figure 1 use 10, its Table 3 lists 5.
		Default: perMethod(map[arch.Method]int{arch.MethodCCN: 16, arch.MethodColumnar: 10, arch.MethodConstructive: 5}),
		Check:   atLeast1(func(c *RunConfig) int { return c.Features }),
		Field:   func(c *RunConfig) any { return &c.Features }},
	{Key: "features-per-stage", Unit: "columns", Help: "columns a stage adds (columnar: all of them, one stage)", For: networked,
		Default: func(c *RunConfig) any {
			if u, fixed := fixedPerStage(c.Method, c.Features); fixed {
				return u
			}
			return 4 // CCN: the paper's u
		},
		Check: func(c *RunConfig) string {
			switch {
			case c.FeaturesPerStage < 1:
				return "must be at least 1"
			case c.FeaturesPerStage > c.Features:
				return fmt.Sprintf("is larger than features %d", c.Features)
			}
			if u, fixed := fixedPerStage(c.Method, c.Features); fixed && c.FeaturesPerStage != u {
				if u == c.Features {
					return fmt.Sprintf("must equal features %d for %s (one stage)", c.Features, c.Method)
				}
				return fmt.Sprintf("must be %d for %s (use ccn)", u, c.Method)
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.FeaturesPerStage }},
	{Key: "steps-per-stage", Unit: "steps", Help: "steps between stage additions, as given (default: the paper's for 10M steps, scaled by steps/10M), or auto: a stage freezes when its features have converged (the stage-* settings)",
		For:     withStages,
		Default: scaledSteps(paperStepsPerStage),
		Check: func(c *RunConfig) string {
			if c.StepsPerStage == AutoStepsPerStage {
				return ""
			}
			return atLeast1(func(c *RunConfig) int { return c.StepsPerStage })(c)
		},
		Field: func(c *RunConfig) any { return &c.StepsPerStage },
		Words: map[string]int{"auto": AutoStepsPerStage}},
	{Key: "stage-min", Unit: "steps", Help: "with steps-per-stage auto: the shortest stage (0: half the paper's steps-per-stage, scaled by steps/10M)",
		For:   withStages,
		Check: autoOnly(func(c *RunConfig) bool { return c.StageMin != 0 }, func(c *RunConfig) string { return nonNegative(c.StageMin) }),
		Field: func(c *RunConfig) any { return &c.StageMin }},
	{Key: "stage-max", Unit: "steps", Help: "with steps-per-stage auto: the longest stage (0: twice the paper's steps-per-stage, scaled by steps/10M)",
		For: withStages,
		Check: autoOnly(func(c *RunConfig) bool { return c.StageMax != 0 }, func(c *RunConfig) string {
			if p := nonNegative(c.StageMax); p != "" {
				return p
			}
			if a := autoFreeze(*c); a.Max < a.Min {
				return fmt.Sprintf("is below the shortest stage %d (stage-min)", a.Min)
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.StageMax }},
	{Key: "stage-window", Unit: "steps", Help: "with steps-per-stage auto: steps between measurements of the learning stage's displacement (0: stage-min/100)",
		For:   withStages,
		Check: autoOnly(func(c *RunConfig) bool { return c.StageWindow != 0 }, func(c *RunConfig) string { return nonNegative(c.StageWindow) }),
		Field: func(c *RunConfig) any { return &c.StageWindow }},
	{Key: "stage-threshold", Help: "with steps-per-stage auto: a stage freezes once the mean cosine of its successive displacements is below this, in [-1, 1]",
		For: withStages,
		Check: autoOnly(func(c *RunConfig) bool { return c.StageThreshold != 0 }, func(c *RunConfig) string {
			if !(c.StageThreshold >= -1 && c.StageThreshold <= 1) {
				return "must lie in [-1, 1]"
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.StageThreshold }},
	{Key: "stage-decay", Help: fmt.Sprintf("with steps-per-stage auto: decay β in (0, 1) of the mean of the cosines (0: %g)", DefaultStageDecay),
		For: withStages,
		Check: autoOnly(func(c *RunConfig) bool { return c.StageDecay != 0 }, func(c *RunConfig) string {
			if !(c.StageDecay >= 0 && c.StageDecay < 1) {
				return "must lie in (0, 1)"
			}
			return ""
		}),
		Field: func(c *RunConfig) any { return &c.StageDecay }},
	{Key: "frozen-step-scale", Help: "frozen stages keep learning with step size this × step-size, along their own columns' traces (beyond the paper, its §6; 0: frozen stages stay constant, the paper's)",
		For: withStages,
		Check: func(c *RunConfig) string {
			switch {
			case !(c.FrozenStepScale >= 0 && c.FrozenStepScale <= 1):
				return "must lie in [0, 1]"
			case c.FrozenStepScale > 0 && c.Float32:
				return "needs the float64 engine (not float32)"
			}
			return ""
		},
		Field:    func(c *RunConfig) any { return &c.FrozenStepScale },
		OmitZero: true},
	{Key: "hidden", Unit: "units", Help: "LSTM units; for rtu and rtu-linear, trace units (two features each)", For: withHidden,
		Default: constant(4),
		Check:   atLeast1(func(c *RunConfig) int { return c.Hidden }),
		Field:   func(c *RunConfig) any { return &c.Hidden }},
	{Key: "no-out-bias", Help: "predict y = w_out·h without the output bias b_out (the authors' baseline)",
		For:   dense,
		Field: func(c *RunConfig) any { return &c.NoOutBias }},
	{Key: "fan-in-init", Help: fmt.Sprintf("start the LSTM's W_ih, W_hh and b from U(±1/√H), as the authors' T-BPTT does, instead of U(±%g)", forward.DefaultInitScale),
		For:   dense,
		Field: func(c *RunConfig) any { return &c.FanInInit }},
	{Key: "full-output-step", Help: "step the output layer with α, as the authors' T-BPTT does, instead of α/H (rmsprop)",
		For: withHidden,
		Check: func(c *RunConfig) string {
			if c.FullOutputStep && c.Optimizer != OptimizerRMSProp {
				return "applies to optimizer rmsprop only (adam steps every parameter with α)"
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.FullOutputStep }},
	{Key: "truncation", Unit: "steps", Help: "T-BPTT truncation k", For: takes(arch.SizeTruncation),
		Default: constant(15),
		Check:   atLeast1(func(c *RunConfig) int { return c.Truncation }),
		Field:   func(c *RunConfig) any { return &c.Truncation }},
	{Key: "epsilon", Help: "floor ε on a feature's σ in the normalization", For: normalized,
		Default: constant(arch.DefaultNormEpsilon),
		Check:   positive(func(c *RunConfig) float64 { return c.Epsilon }),
		Field:   func(c *RunConfig) any { return &c.Epsilon }},
	{Key: "norm-decay", Help: "decay β of the normalization statistics", For: normalized,
		Default: constant(arch.DefaultNormDecay),
		Check:   openUnit(func(c *RunConfig) float64 { return c.NormDecay }),
		Field:   func(c *RunConfig) any { return &c.NormDecay }},
	{Key: "no-norm", Help: "turn the online feature normalization off (the ablation)", For: normalized,
		Field: func(c *RunConfig) any { return &c.NoNorm }},
	{Key: "optimizer", Help: "adam or rmsprop",
		Default: constant(DefaultOptimizer),
		Check: func(c *RunConfig) string {
			if c.Optimizer != OptimizerAdam && c.Optimizer != OptimizerRMSProp {
				return "unknown (want adam or rmsprop)"
			}
			return ""
		},
		Field: func(c *RunConfig) any { return &c.Optimizer }},
	{Key: "window", Unit: "steps", Help: "steps the error curve averages over, by default the paper's for the environment (ccn envs)",
		Default: func(c *RunConfig) any {
			info, err := catalog.Lookup(c.Env)
			if err != nil {
				return 0 // the env row reports the problem first
			}
			return info.Window
		},
		Check: atLeast1(func(c *RunConfig) int { return c.Window }),
		Field: func(c *RunConfig) any { return &c.Window }},
	{Key: "log-every", Unit: "steps", Help: "steps between curve points",
		Default: constant(10_000),
		Check:   atLeast1(func(c *RunConfig) int { return c.LogEvery }),
		Field:   func(c *RunConfig) any { return &c.LogEvery }},
	{Key: "float32", Help: "run the opt-in float32 engine (parameters, traces, pre-activations and RMSProp in float32; checked against float64 by the gate)",
		For: float32Methods,
		Check: func(c *RunConfig) string {
			if c.Float32 && c.Optimizer != OptimizerRMSProp {
				return "applies to optimizer rmsprop only"
			}
			return ""
		},
		Field:       func(c *RunConfig) any { return &c.Float32 },
		OmitZero:    true,
		ListMethods: true},
}

func methodList() string {
	var s []string
	for _, m := range arch.Methods() {
		s = append(s, string(m))
	}
	return strings.Join(s, ", ")
}

// Lookup returns the setting with the given key.
func Lookup(key string) (Setting, bool) {
	for _, s := range Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// Keys returns the keys of Settings in table order.
func Keys() []string {
	keys := make([]string, len(Settings))
	for i, s := range Settings {
		keys[i] = s.Key
	}
	return keys
}

// Applies reports whether s applies to method m.
func (s Setting) Applies(m arch.Method) bool { return s.For == nil || s.For(m) }

// ZeroMeansDefault reports whether a zero value of s is replaced by a
// default, so that an explicit 0 in a flag or a file is refused.
func (s Setting) ZeroMeansDefault() bool {
	if s.Default == nil {
		return false
	}
	switch s.Field(&RunConfig{}).(type) {
	case *int, *float64:
		return true
	}
	return false
}

// DefaultText describes the default of s for the help text: one value, or
// the value of each method it applies to ("" without a default). A default
// that depends on more than the method (steps, environment) is described by
// its value for the defaults of those.
func (s Setting) DefaultText() string {
	if s.Default == nil {
		return ""
	}
	if p, ok := s.Field(&RunConfig{}).(*arch.Method); ok {
		return string(*p) + string(s.Default(&RunConfig{}).(arch.Method))
	}
	var parts []string
	seen := map[string]bool{}
	for _, m := range arch.Methods() {
		if !s.Applies(m) {
			continue
		}
		r, err := RunConfig{Method: m}.Resolve()
		if err != nil {
			panic("experiments: the defaults of " + string(m) + " are invalid: " + err.Error())
		}
		c := r.Config()
		v := s.Format(&c)
		parts = append(parts, string(m)+" "+v)
		seen[v] = true
	}
	if len(seen) == 1 {
		for v := range seen {
			return v
		}
	}
	return strings.Join(parts, ", ")
}

// wordList lists the Words of s, sorted, for messages.
func (s Setting) wordList() string {
	var ws []string
	for w := range s.Words {
		ws = append(ws, strconv.Quote(w))
	}
	slices.Sort(ws)
	return strings.Join(ws, ", ")
}

// autoFreeze returns the auto schedule of c (steps-per-stage auto), its
// zero settings replaced by their defaults: with P the paper's
// steps-per-stage of the method at PaperSteps, scaled to c's steps,
//
//	stage-min       P/2            (at least 1)
//	stage-max       2P             (at least stage-min)
//	stage-window    stage-min/100  (at least 1)
//	stage-threshold 0
//	stage-decay     DefaultStageDecay
//
// On trace patterning CCN's first stage starts with a plateau (after its
// first quick moves the cosines fall near 0 until the CS-US association
// begins to be learned, about 150k-250k steps in at α = 3e-4), which a test
// must not take for convergence: stage-min P/2 (250k steps at 2M) is past
// it. Measured with internal/drift (docs/stages.md).
func autoFreeze(c RunConfig) forward.AutoFreeze {
	scale := func(v float64) int {
		return max(1, int(math.Round(v*float64(c.Steps)/PaperSteps)))
	}
	p := float64(paperStepsPerStage[c.Method])
	a := forward.AutoFreeze{Min: c.StageMin, Max: c.StageMax, Window: c.StageWindow, Threshold: c.StageThreshold, Decay: c.StageDecay}
	if a.Min == 0 {
		a.Min = scale(p / 2)
	}
	if a.Max == 0 {
		a.Max = max(a.Min, scale(2*p))
	}
	if a.Window == 0 {
		a.Window = max(1, a.Min/100)
	}
	if a.Decay == 0 {
		a.Decay = DefaultStageDecay
	}
	return a
}
