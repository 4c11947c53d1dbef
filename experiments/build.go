package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

var (
	_ td.Staged                   = (*forward.Network)(nil)
	_ td.GradAccumulator[float64] = (*forward.Network)(nil)
	_ StageEnder                  = (*forward.Network)(nil)
	_ td.Staged                   = (*forward.NetworkOf[float32])(nil)
	_ td.GradAccumulator[float32] = (*forward.NetworkOf[float32])(nil)
	_ StageEnder                  = (*forward.NetworkOf[float32])(nil)
)

// StageEnder is implemented by learners that freeze stages
// (forward.Network): StageEnds lists the number of steps taken when each
// stage froze, which summary.json records as "stages".
type StageEnder interface {
	StageEnds() []int
}

// learnerSeed derives the learner's initialization seed from the run seed, so
// that the environment and the initial parameters draw from unrelated streams
// (splitmix64 finalizer).
func learnerSeed(seed uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// OpenEnv returns the environment of r, by name from env/catalog. Only a
// recorded stream can fail (a missing, unreadable or refused file: the
// errors of atari.Open); close it with catalog.Close.
func (r Resolved) OpenEnv() (env.Env, error) {
	c := r.c
	return catalog.New(c.Env, catalog.Options{Seed: c.Seed, Gamma: c.Gamma, Stream: c.Stream, Trace: c.trace()})
}

// NewEnv is OpenEnv for callers that have already opened the environment
// once (Run does, before anything else): it panics on an error.
func (r Resolved) NewEnv() env.Env {
	e, err := r.OpenEnv()
	if err != nil {
		panic(fmt.Sprintf("experiments: environment %s: %v", r.c.Env, err))
	}
	return e
}

// Inputs returns the observation length of r's environment.
func (r Resolved) Inputs() int {
	info, err := catalog.Lookup(r.c.Env)
	if err != nil {
		panic(err.Error()) // Resolve checked the name
	}
	if r.c.Env == catalog.TracePatterning {
		return env.DistractorStart + r.c.trace().WithDefaults().Distractors
	}
	return info.Inputs
}

// Network returns the topology of r once every stage has been added, and
// whether r's method is a network at all.
func (r Resolved) Network(inputs int) (arch.Network, bool) {
	c := r.c
	if !c.Method.Networked() {
		return arch.Network{}, false
	}
	var st []int
	for f := 0; f < c.Features; f += c.FeaturesPerStage {
		st = append(st, min(c.FeaturesPerStage, c.Features-f))
	}
	return arch.Network{Inputs: inputs, Stages: st, Norm: c.norm()}, true
}

// Dense returns the dense LSTM shape of a tbptt, rtrl, snap1 or uoro config r.
func (r Resolved) Dense(inputs int) (arch.Dense, bool) {
	c := r.c
	if !c.Method.Dense() {
		return arch.Dense{}, false
	}
	return arch.Dense{Hidden: c.Hidden, Inputs: inputs, OutBias: !c.NoOutBias}, true
}

// Linear returns the shape of a linear config r (the memoryless control).
func (r Resolved) Linear(inputs int) (arch.Linear, bool) {
	if r.c.Method.Family() != arch.FamilyLinear {
		return arch.Linear{}, false
	}
	return arch.Linear{Inputs: inputs, Norm: r.c.norm()}, true
}

// RTU returns the RTU layer shape of an rtu or rtu-linear config r: Hidden
// trace units.
func (r Resolved) RTU(inputs int) (arch.RTU, bool) {
	c := r.c
	if !c.Method.IsRTU() {
		return arch.RTU{}, false
	}
	return arch.RTU{Units: c.Hidden, Inputs: inputs, Linear: c.Method == arch.MethodRTULinear, Norm: c.norm()}, true
}

// AutoFreeze returns the auto stage schedule of r with its defaults filled
// in (see the stage-* settings), or the zero value (off) unless r is a CCN or
// Constructive run with steps-per-stage auto.
func (r Resolved) AutoFreeze() forward.AutoFreeze {
	if r.c.StepsPerStage != AutoStepsPerStage {
		return forward.AutoFreeze{}
	}
	return autoFreeze(r.c)
}

func (c RunConfig) norm() arch.Normalization {
	return arch.Normalization{Enabled: !c.NoNorm, Decay: c.NormDecay, Epsilon: c.Epsilon}
}

// Spec returns the settings of r that size its learner, for a method's
// registered constructor (arch.MethodInfo.New), with inputs raw inputs.
func (r Resolved) Spec(inputs int) arch.Spec {
	c := r.c
	return arch.Spec{
		Inputs: inputs, Seed: learnerSeed(c.Seed), Hidden: c.Hidden,
		Features: c.Features, FeaturesPerStage: c.FeaturesPerStage, StepsPerStage: max(0, c.StepsPerStage),
		Truncation: c.Truncation, OutBias: !c.NoOutBias, FanInInit: c.FanInInit, Norm: c.norm(),
	}
}

// denseEngines are the engines of the methods of arch.FamilyDense, by method:
// the one place that chooses among them (the engines' packages import arch,
// so arch's entries cannot name them). A method added to the dense family
// needs an entry here; TestDenseEnginesCoverRegistry fails otherwise.
var denseEngines = map[arch.Method]func(shape arch.Dense, s arch.Spec) arch.Engine{
	arch.MethodTBPTT: func(shape arch.Dense, s arch.Spec) arch.Engine { return backward.NewTBPTT(shape, s.Truncation) },
	arch.MethodRTRL:  func(shape arch.Dense, _ arch.Spec) arch.Engine { return forward.NewDenseRTRL(shape) },
	arch.MethodSnAp1: func(shape arch.Dense, _ arch.Spec) arch.Engine { return forward.NewSnAp1(shape) },
	// UORO draws from its own stream, apart from the initialization's.
	arch.MethodUORO: func(shape arch.Dense, s arch.Spec) arch.Engine { return forward.NewUORO(shape, s.Seed) },
}

// NewLearner returns the learner of r for inputs
// raw inputs, its parameter layout, and its optimizer. Columns start from
// U(−s, s) with s = forward.DefaultInitScale; dense LSTM cell parameters
// likewise, or with s = 1/√H under fan-in-init (the authors' T-BPTT), and
// w_out = 0 (and b_out = 0) so that every learner's first prediction is 0;
// the linear control starts from w = 0, b = 0. The linear control has no
// head: every one of its parameters reads an input directly, as a column's
// input weights do, and steps with α.
//
// An RTU layer draws ν^log and θ^log as the authors' code does (|λ| uniform
// in [0, 1), phase uniform in (0, 2π]: forward.InitRTU), W_1 and W_2 from
// U(−s, s), s = forward.DefaultInitScale, and w_out = 0, b_out = 0.
//
// A method added with arch.Register is built by its entry's New, from Spec.
func (r Resolved) NewLearner(inputs int) (arch.Engine, td.Layout, td.Optimizer[float64]) {
	c := r.c
	seed := learnerSeed(c.Seed)
	var l arch.Engine
	var layout td.Layout
	info, _ := arch.Info(c.Method)
	switch info.Family {
	case arch.FamilyOther:
		var h arch.Head
		l, h = info.New(r.Spec(inputs))
		layout = td.Layout{Size: l.NumParams(), HeadStart: h.Start, HeadEnd: h.End, Features: h.Features}
	case arch.FamilyLinear:
		shape, _ := r.Linear(inputs)
		l = forward.NewLinear(shape)
		layout = td.Layout{Size: shape.NumParams(), HeadStart: shape.NumParams(), HeadEnd: shape.NumParams(), Features: 1}
	case arch.FamilyDense:
		shape, _ := r.Dense(inputs)
		l = denseEngines[c.Method](shape, r.Spec(inputs))
		drawDenseCells(l.Params(), shape, c.FanInInit, seed)
		layout = td.DenseLayout(shape)
	case arch.FamilyRTU:
		shape, _ := r.RTU(inputs)
		e := forward.NewRTU(shape)
		rng := rand.New(rand.NewPCG(seed, 0))
		p := e.Params()
		for i := range shape.NumCellParams() {
			p[i] = forward.DefaultInitScale * (2*rng.Float64() - 1)
		}
		forward.InitRTU(shape, p, 0, 1, func() float64 { return 1 - rng.Float64() })
		l = e
		layout = td.RTULayout(shape)
	case arch.FamilyNetwork:
		n := forward.NewNetwork(r.networkConfig(inputs))
		l = n
		layout = td.NetworkLayout(n.Topology())
	default:
		panic(fmt.Sprintf("experiments: method %s has no entry in the registry of methods (arch.Register)", c.Method))
	}
	return l, layout, r.optimizer(c.StepSize)
}

// optimizer returns the run's optimizer with step size alpha.
func (r Resolved) optimizer(alpha float64) td.Optimizer[float64] {
	if r.c.Optimizer == OptimizerAdam {
		return &td.Adam{StepSize: alpha}
	}
	return &td.RMSProp{StepSize: alpha, FullHeadStep: r.c.FullOutputStep}
}

// drawDenseCells draws a dense LSTM's cell parameters p[:NumCellParams()]
// from U(−s, s), s = forward.DefaultInitScale, or 1/√H under fan-in-init,
// in order from the learner's seeded stream; the float32 engine takes the
// float64 draws rounded.
func drawDenseCells[T arch.Float](p []T, shape arch.Dense, fanIn bool, seed uint64) {
	scale := forward.DefaultInitScale
	if fanIn {
		scale = 1 / math.Sqrt(float64(shape.Hidden))
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for i := range shape.NumCellParams() {
		p[i] = T(scale * (2*rng.Float64() - 1))
	}
}

// networkConfig is the configuration of the network of a networked method.
func (r Resolved) networkConfig(inputs int) forward.NetworkConfig {
	c := r.c
	return forward.NetworkConfig{
		Inputs:           inputs,
		FeaturesPerStage: c.FeaturesPerStage,
		MaxFeatures:      c.Features,
		StepsPerStage:    max(0, c.StepsPerStage),
		AutoFreeze:       r.AutoFreeze(),
		Norm:             c.norm(),
		FrozenTraces:     c.FrozenStepScale > 0,
		Seed:             learnerSeed(c.Seed),
	}
}

// NewLearner32 is NewLearner for a run of the float32 engine (the float32
// setting): the network of a networked method (forward.NetworkOf[float32])
// or T-BPTT's LSTM (backward.TBPTT32) with parameters, traces or history and
// pre-activations in float32, drawn as NewLearner draws them and rounded,
// and RMSProp in float32 (td.RMSProp32). It panics for a configuration
// without the float32 setting, which Resolve refuses for the methods and
// optimizers it does not apply to (float32Methods).
func (r Resolved) NewLearner32(inputs int) (arch.EngineOf[float32], td.Layout, td.Optimizer[float32]) {
	c := r.c
	if !c.Float32 || !float32Methods(c.Method) || c.Optimizer != OptimizerRMSProp {
		panic(fmt.Sprintf("experiments: NewLearner32 of method %s, optimizer %s, float32 %v", c.Method, c.Optimizer, c.Float32))
	}
	opt := &td.RMSProp32{StepSize: c.StepSize, FullHeadStep: c.FullOutputStep}
	if c.Method == arch.MethodTBPTT {
		shape, _ := r.Dense(inputs)
		t := backward.NewTBPTT32(shape, r.Spec(inputs).Truncation)
		drawDenseCells(t.Params(), shape, c.FanInInit, learnerSeed(c.Seed))
		return t, td.DenseLayout(shape), opt
	}
	n := forward.NewNetworkOf[float32](r.networkConfig(inputs))
	return n, td.NetworkLayout(n.Topology()), opt
}
