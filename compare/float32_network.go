package compare

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

// The float32 engine (forward.NetworkOf[float32] learning with
// td.RMSProp32, docs/performance.md) computes in float32 what the float64
// engine computes in float64, so it cannot be held to Tolerance against the
// reference. CheckFloat32Network holds it to the float64 engine instead,
// itself proven equal to the reference, on a trajectory along which both
// learn as a run does.

// Eps32 is the machine epsilon of float32, 2⁻²³.
const Eps32 = 0x1p-23

// Float32Tolerance returns the largest disagreement CheckFloat32Network
// allows at step t ≥ 1 of a network whose widest column reads m inputs:
//
//	tol(t, m) = (t + m)·ε₃₂
//
// The m term is the rounding of the float32 pre-activations: a sum of 2m+2
// products, each product and each partial sum rounded once, is within
// about (2m+2)·ε₃₂/2 of the exact sum relative to the sum of the terms'
// magnitudes (the classic bound of a float sum; errors of random sign add
// up like √m·ε₃₂ in the mean, but the tails reach well past that). The t
// term is the rounding that learning carries from step to step: each step
// rounds each trace entry a few times (8 float32 operations, each off by at
// most ε₃₂/2) and each parameter once per update, and the errors of
// successive steps add up at most linearly in t (the traces' recursion
// contracts, f < 1; RMSProp's step is bounded by α). rel measures them
// against the largest gradient entry (at least 1); docs/verification.md
// gives the measured margins.
func Float32Tolerance(t, m int) float64 { return float64(t+m) * Eps32 }

// Float32NetSpec is a Columnar, Constructive or CCN network followed by
// CheckFloat32Network: it starts at stage 0 and AdvanceStage is called
// after each segment but the last.
type Float32NetSpec struct {
	Inputs           int                // raw input size m
	FeaturesPerStage int                // columns each stage adds
	MaxFeatures      int                // total features
	Norm             arch.Normalization // the features' online normalization
	Segments         []int              // steps spent in each stage; one entry: a single stage
	// StepSize is the α of the RMSProp steps both engines take (β =
	// 0.9999, ε = 1e-8, as a run's); 0 means 1e-3.
	StepSize float64
}

// Float32Agreement is the outcome of CheckFloat32Network: Worst is the
// largest ratio of a step's disagreement to its tolerance, at step Step
// (1-based), where the disagreement was MaxRel and the tolerance Tol.
type Float32Agreement struct {
	Worst  float64
	Step   int
	MaxRel float64
	Tol    float64
}

// Pass reports whether every step was within its tolerance.
func (a Float32Agreement) Pass() bool { return a.Worst <= 1 }

// CheckFloat32Network runs the float64 and the float32 engine of spec side
// by side on tr.Xs from the same parameters (drawn U(−tr.Scale, tr.Scale)
// from seed by the engines' own initialization, rounded to float32 for the
// float32 engine), both learning as a run does: td.Agent with γ = λ = 0.9
// on the cumulant x[0], td.RMSProp and td.RMSProp32 respectively. After
// every step t it measures
//
//	rel_t = max( |y³²_t − y_t| / max(1, |y_t|),  max_i |g³²_i − g_i| / max(1, max_i |g_i|) )
//
// with y the predictions and g the gradients ∇y_t (Grad) of the two
// engines, and requires rel_t ≤ Float32Tolerance(t, m) with m the input
// size of the widest column (the last stage's). defect is injected into the
// float32 engine only.
func CheckFloat32Network(spec Float32NetSpec, tr Trajectory, seed uint64, defect forward.Defect) Float32Agreement {
	total := 0
	for _, s := range spec.Segments {
		total += s
	}
	if len(spec.Segments) == 0 || total > len(tr.Xs) || total < 1 {
		panic(fmt.Sprintf("compare: float32 check of segments %v on %d inputs", spec.Segments, len(tr.Xs)))
	}
	alpha := spec.StepSize
	if alpha == 0 {
		alpha = 1e-3
	}
	const gamma, lambda = 0.9, 0.9
	cfg := forward.NetworkConfig{Inputs: spec.Inputs, FeaturesPerStage: spec.FeaturesPerStage,
		MaxFeatures: spec.MaxFeatures, Norm: spec.Norm, InitScale: tr.Scale, Seed: seed}
	n64 := forward.NewNetworkOf[float64](cfg)
	n32 := forward.NewNetworkOf[float32](cfg)
	n32.Defect = defect
	a64 := td.New(n64, td.NetworkLayout(n64.Topology()), &td.RMSProp{StepSize: alpha}, gamma, lambda)
	a32 := td.New(n32, td.NetworkLayout(n32.Topology()), &td.RMSProp32{StepSize: alpha}, gamma, lambda)
	// The last stage's columns read the inputs and every earlier feature.
	m := spec.Inputs + max(0, spec.MaxFeatures-spec.FeaturesPerStage)
	var out Float32Agreement
	var g64, g32w []float64
	var g32 []float32
	t := 0
	for s, steps := range spec.Segments {
		if s > 0 {
			n64.AdvanceStage()
			n32.AdvanceStage()
		}
		for range steps {
			x := tr.Xs[t]
			var y, y32 float64
			if t == 0 {
				y, y32 = a64.Start(x), a32.Start(x)
			} else {
				y, _ = a64.Step(x, x[0])
				y32, _ = a32.Step(x, x[0])
			}
			t++
			p := n64.NumParams()
			g64, g32, g32w = resize(g64, p), resize(g32, p), resize(g32w, p)
			n64.Grad(g64)
			n32.Grad(g32)
			for i, v := range g32 {
				g32w[i] = float64(v)
			}
			rel := math.Abs(y32-y) / max(1, math.Abs(y))
			if math.IsNaN(rel) {
				rel = math.Inf(1)
			}
			rel = max(rel, Measure(g32w, g64).MaxRel)
			tol := Float32Tolerance(t, m)
			if r := rel / tol; r > out.Worst || math.IsInf(r, 1) {
				out = Float32Agreement{Worst: r, Step: t, MaxRel: rel, Tol: tol}
			}
		}
	}
	return out
}

// resize returns s with length n, reallocated if too short.
func resize[T arch.Float](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Float32NetCase is a case of Float32Suite.
type Float32NetCase struct {
	Name string // the method and size, the input size after the slash
	Spec Float32NetSpec
}

// Float32NetCases are the networks of the float32 engine's check:
// Columnar, Constructive and CCN through stage changes, small and at the
// Atari input size, with normalization off, on and moving fast.
var Float32NetCases = []Float32NetCase{
	{"columnar1/m1", Float32NetSpec{Inputs: 1, FeaturesPerStage: 1, MaxFeatures: 1, Segments: []int{60}}},
	{"columnar3/m7", Float32NetSpec{Inputs: 7, FeaturesPerStage: 3, MaxFeatures: 3, Norm: arch.Normalization{Enabled: true}, Segments: []int{300}}},
	{"constructive3/m12", Float32NetSpec{Inputs: 12, FeaturesPerStage: 1, MaxFeatures: 3, Norm: FastNorm, Segments: []int{40, 40, 40}}},
	{"ccn6x2/m9", Float32NetSpec{Inputs: 9, FeaturesPerStage: 2, MaxFeatures: 6, Norm: arch.Normalization{Enabled: true}, Segments: []int{50, 50, 50}, StepSize: 1e-2}},
	{"columnar6/m275", Float32NetSpec{Inputs: 275, FeaturesPerStage: 6, MaxFeatures: 6, Norm: arch.Normalization{Enabled: true}, Segments: []int{100}}},
	{"ccn15x5/m275", Float32NetSpec{Inputs: 275, FeaturesPerStage: 5, MaxFeatures: 15, Norm: arch.Normalization{Enabled: true}, Segments: []int{30, 30, 40}}},
}

// Float32TBPTTCase is a T-BPTT case of Float32Suite: H units, m inputs,
// truncation K, T steps.
type Float32TBPTTCase struct {
	Name       string // the k:H pair, the input size after the slash
	H, M, K, T int
}

// Float32TBPTTCases are the T-BPTT engines of the float32 check: the Atari
// pair 5:7 at 275 inputs and the trace-patterning pair 15:4 at 12.
var Float32TBPTTCases = []Float32TBPTTCase{
	{"tbptt5:7/m275", 7, 275, 5, 150},
	{"tbptt15:4/m12", 4, 12, 15, 200},
}

// Float32Result is one row of Float32Suite: a case on one trajectory.
type Float32Result struct {
	Name  string // the case's
	Kind  InputKind
	Scale float64
	Steps int
	Float32Agreement
}

// Float32Suite runs CheckFloat32Network on every case of Float32NetCases,
// then CheckTBPTT32 on every case of Float32TBPTTCases, over trajectories
// random trajectories each (0: 3, one per parameter scale 0.1, 0.5, 1.5,
// alternating input kinds) drawn from seed, with the mistake in injected
// into the float32 engine (ccn verify's float32 rows). A T-BPTT row's
// MaxRel and Tol are those of its worst step.
func Float32Suite(seed uint64, trajectories int, in Injection) []Float32Result {
	if trajectories == 0 {
		trajectories = len(scales)
	}
	var out []Float32Result
	for ci, c := range Float32NetCases {
		total := 0
		for _, s := range c.Spec.Segments {
			total += s
		}
		for i := range trajectories {
			tr := randomTrajectory(newRand(seed, 1000+10*ci+i), i, total, c.Spec.Inputs)
			a := CheckFloat32Network(c.Spec, tr, seed+uint64(10*ci+i), in.Forward())
			out = append(out, Float32Result{Name: c.Name, Kind: tr.Kind, Scale: tr.Scale, Steps: total, Float32Agreement: a})
		}
	}
	for ci, c := range Float32TBPTTCases {
		for i := range trajectories {
			rng := newRand(seed, 2000+10*ci+i)
			tr := randomTrajectory(rng, i, c.T, c.M)
			a := CheckTBPTT32(arch.Dense{Hidden: c.H, Inputs: c.M}, c.K, tr, rng, in.Backward())
			row := Float32Agreement{Worst: a.Worst, Step: a.Step, MaxRel: a.StepRel}
			if a.Worst > 0 {
				row.Tol = a.StepRel / a.Worst
			}
			out = append(out, Float32Result{Name: c.Name, Kind: tr.Kind, Scale: tr.Scale, Steps: c.T, Float32Agreement: row})
		}
	}
	return out
}
