package compare

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/experiments"
)

// GateWarmup bounds the random number of steps of a run's stream that the
// gate skips before the stretch it checks.
const GateWarmup = 10_000

// RunGate checks the architecture that r configures against the autodiff
// reference before a run: the gradient gate of ccn run and ccn sweep. Pass it
// as experiments.Options.Gate to get the same gate from the library:
//
//	experiments.Run(ctx, r, dir, experiments.Options{Gate: compare.RunGate})
//
// It is RunGateInjected with InjectNone; see RunGateSpec for what it checks.
// A method the registry exempts from the gate (arch.GateExempt) passes
// unchecked. It returns a *GateError when a check disagrees.
func RunGate(r experiments.Resolved) error { return RunGateInjected(r, InjectNone) }

// RunGateInjected is RunGate with the mistake in injected into the engines
// it checks (ccn run --inject): it must return a *GateError, which shows the
// gate's teeth on the run's own configuration. It panics if in cannot change
// the engine of r's method (Injection.CheckRun).
func RunGateInjected(r experiments.Resolved, in Injection) error {
	if err := in.CheckRun(r.Config().Method); err != nil {
		panic(err.Error())
	}
	spec, ok := RunGateSpec(r, in)
	if !ok {
		return nil
	}
	return Gate(spec)
}

// RunGateSpec returns the gate's check of a run of r, with in injected, and
// false for a method the registry exempts (arch.GateExempt). The check runs
// on the run's own inputs: GateLength steps (two windows, 2k, for a longer
// T-BPTT window k) of the configured environment's stream, after a warm-up of
// up to GateWarmup steps drawn from the seed, at the configured sizes and
// normalization. The engines checked follow the method: the network (every
// stage change, and with steps-per-stage auto also changes at steps the
// AutoFreeze test picks) for Columnar, Constructive and CCN, the linear control, the
// RTU layer, and for the dense LSTM T-BPTT with the run's k, exact RTRL,
// SnAp-1 or UORO's exact parts. A run of the float32 engine (the float32
// setting) also has its float32 network held to the float64 one
// (CheckFloat32Network).
func RunGateSpec(r experiments.Resolved, in Injection) (GateSpec, bool) {
	c := r.Config()
	info, _ := arch.Info(c.Method)
	if info.Gate == arch.GateExempt {
		return GateSpec{}, false // no reference for it: info.Exempt says why
	}
	e := r.NewEnv()
	defer catalog.Close(e)
	inputs := e.ObservationSize()
	n := GateLength
	if info.Takes(arch.SizeTruncation) {
		n = max(n, 2*c.Truncation)
	}
	rng := newRand(c.Seed, 1)
	spec := GateSpec{Xs: streamInputs(e, rng.IntN(GateWarmup), n), Seed: c.Seed, Inject: in, Float32: c.Float32}
	if top, ok := r.Network(inputs); ok {
		spec.Net = &GateNet{FeaturesPerStage: c.FeaturesPerStage, MaxFeatures: c.Features, Norm: top.Norm, AutoFreeze: r.AutoFreeze().On(),
			FrozenTraces: c.FrozenStepScale > 0, StepSize: c.StepSize}
	} else if l, ok := r.Linear(inputs); ok {
		spec.Linear = &l
	} else if s, ok := r.RTU(inputs); ok {
		spec.RTU = &s
	} else if d, ok := r.Dense(inputs); ok {
		spec.Dense = &d
		denseGate[c.Method](&spec, c.Truncation)
	} else {
		panic(fmt.Sprintf("compare: method %s is neither exempt from the gate nor of a family it checks", c.Method))
	}
	return spec, true
}

// denseGate selects in a GateSpec the engine the gate checks for each method
// of arch.FamilyDense (k: the run's truncation): the one place that chooses
// among them. A method added to the dense family needs an entry here;
// TestDenseGateCoversRegistry fails otherwise.
var denseGate = map[arch.Method]func(spec *GateSpec, k int){
	arch.MethodTBPTT: func(spec *GateSpec, k int) { spec.Truncation = k },
	arch.MethodRTRL:  func(spec *GateSpec, _ int) { spec.RTRL = true },
	arch.MethodSnAp1: func(spec *GateSpec, _ int) { spec.SnAp1 = true },
	arch.MethodUORO:  func(spec *GateSpec, _ int) { spec.UORO = true },
}

// CheckRun returns an error if a run's gate cannot inject in into the engine
// of method m: in changes another method's engine, or (InjectAsymmetricUORO)
// UORO's random estimate, which only the suite's statistical rows check
// (CheckUORO; a run's gate checks UORO's exact parts). InjectNone is never
// an error.
func (in Injection) CheckRun(m arch.Method) error {
	switch {
	case in == InjectNone:
		return nil
	case in == InjectAsymmetricUORO:
		return fmt.Errorf("compare: %s biases UORO's random estimate, which only ccn verify's statistical rows check (a run's gate checks UORO's exact parts)", in)
	case !in.AppliesTo(m):
		return fmt.Errorf("compare: %s does not change the engine of method %s", in, m)
	}
	return nil
}
