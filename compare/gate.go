package compare

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/reference"
)

// GateSpec describes the run an experiment is about to start. Exactly one of
// Net (Columnar, Constructive, CCN), Dense (T-BPTT, dense RTRL, SnAp-1, UORO),
// Linear (the memoryless control) or RTU (an RTU layer) is set.
type GateSpec struct {
	// Xs is a stretch of the run's own input stream (RunGateSpec draws it), at least
	// GateLength steps (more for T-BPTT with a long window, see Gate); its
	// rows have the configured input size.
	Xs [][]float64

	// Net is the network's growth: FeaturesPerStage columns per stage up to
	// MaxFeatures, normalized with Norm (the run's settings).
	Net *GateNet
	// Dense is the dense LSTM's shape, with Truncation the T-BPTT k, or RTRL
	// set for exact dense RTRL, SnAp1 for SnAp-1 (checked against what it
	// must equal, CheckSnAp1) or UORO for UORO (whose cell gradient is
	// random: the gate checks the parts that are exact, CheckUOROExactParts;
	// its unbiasedness is CheckUORO's, in the tests).
	Dense      *arch.Dense
	Truncation int
	RTRL       bool
	SnAp1      bool
	UORO       bool
	// Linear is the linear control's shape, normalized as the run is.
	Linear *arch.Linear
	// RTU is the shape of an RTU layer (CheckRTU over the whole of Xs).
	RTU *arch.RTU

	// Float32 also holds the float32 engine to the float64 engine after the
	// float64 engine passed, at both gate scales: a network's
	// (CheckFloat32Network on Xs, the stages as for the reference) or
	// T-BPTT's (CheckTBPTT32 on Xs).
	Float32 bool

	Seed   uint64
	Inject Injection // a mistake injected into the engines (InjectNone: none)
}

// GateNet is the configuration of a network run as the gate needs it.
type GateNet struct {
	FeaturesPerStage int
	MaxFeatures      int // MaxFeatures = FeaturesPerStage: Columnar, one stage
	Norm             arch.Normalization
	// AutoFreeze: the stages freeze when their features have converged
	// (forward.AutoFreeze); the gate then also follows stage changes at
	// steps the test picks (gateAuto).
	AutoFreeze bool
	// FrozenTraces: the frozen columns keep their traces and learn
	// (frozen-step-scale); the gate then also checks FrozenGrad at the
	// run's last topology (gateFrozen).
	FrozenTraces bool
	StepSize     float64 // α, for the float32 check (0: 1e-3)
}

// GateLength is the least number of steps the gate checks: long enough for
// every term of the recurrences, the truncation window and (with
// normalization moving fast) the statistics to matter.
const GateLength = 100

// gateUnroll is the reference's window in the gate (reference.MaxUnroll):
// the gate meets a new topology at every stage, and compiling is what costs
// there. Measured on the 10-stage CCN 40 (4 per stage): 0.57 s of CPU with
// windows of 2 steps, 0.71 s with 3, 1.23 s with 5.
const gateUnroll = 2

// gateDenseUnroll is the reference's window for the dense LSTM, whose one
// graph serves every step: T-BPTT with k = 30 (H = 2) took 1.09 s of CPU
// with windows of 5, 0.68 s with 10, 0.79 s with 16.
const gateDenseUnroll = 10

// gateFrozenLength is the length of the gate's check of the frozen columns'
// traces (CheckFrozenTraces), whose reference is one graph of that many
// steps over every stage.
const gateFrozenLength = 20

// gateScales are the parameter scales of the gate's two checks: moderate
// weights with the run's normalization, saturating ones with FastNorm.
var gateScales = [2]float64{0.5, 1.5}

// gateNorm returns the normalization of the gate's check i of a learner
// normalized with run, and its name: the run's own settings, except that the
// second check of a normalized learner uses FastNorm.
func gateNorm(i int, run arch.Normalization) (arch.Normalization, string) {
	if i == 1 && run.Enabled {
		return FastNorm, "normalization β=0.9"
	}
	return run, "the run's normalization"
}

// streamInputs returns n observations of the stream e after skipping warmup
// of them: the inputs a run will see, from a random point of its stream.
func streamInputs(e env.Env, warmup, n int) [][]float64 {
	x := make([]float64, e.ObservationSize())
	for range warmup {
		e.Next(x)
	}
	xs := make([][]float64, n)
	for t := range xs {
		xs[t] = make([]float64, len(x))
		e.Next(xs[t])
	}
	return xs
}

// GateError is the error of a gate that refuses a run: Check names the check
// that failed.
type GateError struct {
	Check     string
	Agreement Agreement
	// Float32 is set when the float32 engine disagreed with the float64
	// one (CheckFloat32Network, CheckTBPTT32) beyond Tol; else the engine
	// disagreed with the reference beyond Tolerance.
	Float32 bool
	Tol     float64
}

func (e *GateError) Error() string {
	if e.Float32 {
		return fmt.Sprintf("compare: gradient gate: %s disagrees with the float64 engine (max rel error %.3g > %.3g); refusing to run",
			e.Check, e.Agreement.MaxRel, e.Tol)
	}
	return fmt.Sprintf("compare: gradient gate: %s disagrees with the autodiff reference (max rel error %.3g > %g); refusing to run",
		e.Check, e.Agreement.MaxRel, Tolerance)
}

// Gate checks the configured architecture itself, with random parameters, on
// spec.Xs, against the reference, twice: at parameter scale 0.5 with the
// run's normalization, and at scale 1.5 (saturated gates) with the statistics
// moving fast (FastNorm). A network with stages is followed from stage 0
// through every stage change (CheckStaged), Xs split evenly over the stages;
// Columnar and the dense LSTM are checked over the whole of Xs. It returns a
// *GateError naming the first check that disagrees beyond Tolerance, or an
// error if the reference itself failed.
func Gate(spec GateSpec) error {
	if len(spec.Xs) < GateLength {
		panic(fmt.Sprintf("compare: gate needs at least %d inputs, got %d", GateLength, len(spec.Xs)))
	}
	r := reference.New()
	r.MaxUnroll = gateUnroll
	if spec.Dense != nil {
		r.MaxUnroll = gateDenseUnroll
	}
	rng := newRand(spec.Seed, 0)
	for i, scale := range gateScales {
		tr := Trajectory{Xs: spec.Xs, Scale: scale}
		var checks []string
		var as []Agreement
		var err error
		switch {
		case spec.Net != nil:
			norm, normName := gateNorm(i, spec.Net.Norm)
			m := len(spec.Xs[0])
			if spec.Net.MaxFeatures > spec.Net.FeaturesPerStage {
				seg := StagedSpec{Inputs: m, FeaturesPerStage: spec.Net.FeaturesPerStage, MaxFeatures: spec.Net.MaxFeatures, Norm: norm}
				stages := (spec.Net.MaxFeatures + spec.Net.FeaturesPerStage - 1) / spec.Net.FeaturesPerStage
				for s := range stages {
					seg.Segments = append(seg.Segments, len(spec.Xs)*(s+1)/stages-len(spec.Xs)*s/stages)
					name := fmt.Sprintf("stage 0 (%s, scale %g)", normName, scale)
					if s > 0 {
						name = fmt.Sprintf("stage change %s (%s, scale %g)", transition(s), normName, scale)
					}
					checks = append(checks, name)
				}
				as, err = CheckStaged(r, seg, tr, rng, spec.Inject.Forward())
				if spec.Net.AutoFreeze && err == nil {
					name, a, aerr := gateAuto(r, *spec.Net, norm, normName, tr, rng, spec.Inject)
					checks, as, err = append(checks, name), append(as, a), aerr
				}
				if spec.Net.FrozenTraces && err == nil {
					tops := seg.topologies()
					top := tops[len(tops)-1]
					short := Trajectory{Xs: spec.Xs[:gateFrozenLength], Scale: scale}
					var a Agreement
					a, err = gateCheckFrozen(r, top, short, rng, spec.Inject.Forward())
					checks = append(checks, fmt.Sprintf("frozen columns' traces at stages %v (%s, scale %g)", top.Stages, normName, scale))
					as = append(as, a)
				}
			} else {
				top := arch.Columnar(m, spec.Net.MaxFeatures, norm)
				var a Agreement
				a, err = CheckNetwork(r, top, tr, rng, spec.Inject.Forward())
				checks, as = []string{fmt.Sprintf("columnar %d (%s, scale %g)", spec.Net.MaxFeatures, normName, scale)}, []Agreement{a}
			}
		case spec.Linear != nil:
			shape := *spec.Linear
			var normName string
			shape.Norm, normName = gateNorm(i, shape.Norm)
			var a Agreement
			a, err = CheckLinear(r, shape, tr, rng, spec.Inject.Forward())
			checks, as = []string{fmt.Sprintf("linear m=%d (%s, scale %g)", shape.Inputs, normName, scale)}, []Agreement{a}
		case spec.RTU != nil:
			shape := *spec.RTU
			var normName string
			shape.Norm, normName = gateNorm(i, shape.Norm)
			var a Agreement
			a, err = CheckRTU(r, shape, tr, rng, spec.Inject.Forward())
			kind := "RTU"
			if shape.Linear {
				kind = "linear RTU"
			}
			checks, as = []string{fmt.Sprintf("%s n=%d m=%d (%s, scale %g)", kind, shape.Units, shape.Inputs, normName, scale)}, []Agreement{a}
		case spec.Dense != nil && spec.SnAp1:
			var a Agreement
			a, err = CheckSnAp1(r, *spec.Dense, false, tr, rng, spec.Inject.Forward())
			checks, as = []string{fmt.Sprintf("SnAp-1 H=%d m=%d (scale %g)", spec.Dense.Hidden, spec.Dense.Inputs, scale)}, []Agreement{a}
		case spec.Dense != nil && spec.UORO:
			var a Agreement
			a, err = CheckUOROExactParts(r, *spec.Dense, tr, rng, spec.Seed)
			checks, as = []string{fmt.Sprintf("UORO predictions and head gradients H=%d m=%d (scale %g)", spec.Dense.Hidden, spec.Dense.Inputs, scale)}, []Agreement{a}
		case spec.Dense != nil && spec.RTRL:
			var a Agreement
			a, err = CheckDenseRTRL(r, *spec.Dense, tr, rng, spec.Inject.Forward())
			checks, as = []string{fmt.Sprintf("dense RTRL H=%d m=%d (scale %g)", spec.Dense.Hidden, spec.Dense.Inputs, scale)}, []Agreement{a}
		case spec.Dense != nil:
			if len(spec.Xs) < spec.Truncation+5 {
				panic(fmt.Sprintf("compare: gate for k=%d needs at least %d inputs", spec.Truncation, spec.Truncation+5))
			}
			var a Agreement
			a, err = CheckTBPTT(r, *spec.Dense, spec.Truncation, tr, rng, spec.Inject.Backward())
			checks, as = []string{fmt.Sprintf("T-BPTT H=%d m=%d k=%d (scale %g)", spec.Dense.Hidden, spec.Dense.Inputs, spec.Truncation, scale)}, []Agreement{a}
		default:
			panic("compare: GateSpec needs Net, Dense, Linear or RTU")
		}
		for j, a := range as {
			if !a.Pass() {
				return &GateError{Check: checks[j], Agreement: a}
			}
		}
		if err != nil {
			return fmt.Errorf("compare: gradient gate: reference failed: %w", err)
		}
	}
	switch {
	case spec.Float32 && spec.Net != nil:
		return gateFloat32(spec)
	case spec.Float32 && spec.Dense != nil && !spec.RTRL && !spec.SnAp1 && !spec.UORO:
		return gateTBPTT32(spec)
	}
	return nil
}

// gateCheckFrozen is the check of the frozen columns' traces that Gate runs
// (a variable so that a test can see that Gate runs it).
var gateCheckFrozen = CheckFrozenTraces

// gateCheckTBPTT32 is the check gateTBPTT32 runs (a variable so that a test can
// see that Gate runs it).
var gateCheckTBPTT32 = CheckTBPTT32

// gateTBPTT32 is the float32 part of Gate for T-BPTT: CheckTBPTT32 on
// spec.Xs at both gate scales, with spec.Inject's defect in the float32
// engine.
func gateTBPTT32(spec GateSpec) error {
	rng := newRand(spec.Seed, 32)
	for _, scale := range gateScales {
		a := gateCheckTBPTT32(*spec.Dense, spec.Truncation, Trajectory{Xs: spec.Xs, Scale: scale}, rng, spec.Inject.Backward())
		if !a.Pass() {
			return &GateError{Check: fmt.Sprintf("float32 T-BPTT H=%d m=%d k=%d at step %d (scale %g)",
				spec.Dense.Hidden, spec.Dense.Inputs, spec.Truncation, a.Step, scale),
				Agreement: Agreement{MaxRel: a.StepRel}, Float32: true, Tol: a.StepRel / a.Worst}
		}
	}
	return nil
}

// gateFloat32 is the float32 part of Gate: CheckFloat32Network on spec.Xs
// at both gate scales (the second with FastNorm where the run normalizes),
// the stages split over Xs as for the reference, with spec.Inject's defect
// in the float32 engine.
func gateFloat32(spec GateSpec) error {
	net := *spec.Net
	segs := []int{len(spec.Xs)}
	if net.MaxFeatures > net.FeaturesPerStage {
		stages := (net.MaxFeatures + net.FeaturesPerStage - 1) / net.FeaturesPerStage
		segs = segs[:0]
		for s := range stages {
			segs = append(segs, len(spec.Xs)*(s+1)/stages-len(spec.Xs)*s/stages)
		}
	}
	for i, scale := range gateScales {
		norm, normName := gateNorm(i, net.Norm)
		fs := Float32NetSpec{Inputs: len(spec.Xs[0]), FeaturesPerStage: net.FeaturesPerStage, MaxFeatures: net.MaxFeatures,
			Norm: norm, Segments: segs, StepSize: net.StepSize}
		a := CheckFloat32Network(fs, Trajectory{Xs: spec.Xs, Scale: scale}, spec.Seed, spec.Inject.Forward())
		if !a.Pass() {
			return &GateError{Check: fmt.Sprintf("float32 engine at step %d (%s, scale %g)", a.Step, normName, scale),
				Agreement: Agreement{MaxRel: a.MaxRel}, Float32: true, Tol: a.Tol}
		}
	}
	return nil
}
