package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// AutoStagedSpec is a Constructive or CCN network whose stages freeze when
// the forward.AutoFreeze test says so, at steps that depend on the data: the
// check moves the learning columns' parameters every Freeze.Window steps
// (a gradient step, see CheckAutoStaged), and the engine picks the steps at
// which its stages freeze.
type AutoStagedSpec struct {
	Inputs           int                // raw input size m
	FeaturesPerStage int                // columns each stage adds
	MaxFeatures      int                // total features
	Norm             arch.Normalization // the features' online normalization
	Freeze           forward.AutoFreeze // the test; 2 ≤ Freeze.Window ≤ Freeze.Min
	Rate             float64            // η of the check's parameter steps
}

// AutoStaged is the outcome of CheckAutoStaged: the agreement of the
// predictions over the whole trajectory, of the gradients over the first
// window of every stage, and the steps at which the engine froze its stages.
type AutoStaged struct {
	Predictions Agreement
	Stages      []Agreement // stage s: steps e_s+1 … e_s+K−1 (e_0 = 0)
	Ends        []int       // the engine's StageEnds
}

// Worst is the worst of the agreements of a.
func (a AutoStaged) Worst() Agreement {
	w := a.Predictions
	for _, s := range a.Stages {
		w = w.Worst(s)
	}
	return w
}

// CheckAutoStaged follows forward.Network under the AutoFreeze test of spec
// on tr and checks it against the reference, which freezes its stages at the
// steps the engine picked (StageEnds) and carries the parameters over by
// itself (carried). Parameters are drawn U(−tr.Scale, tr.Scale). Before the
// engine's step n = jK of a stage (j ≥ 1) the check moves the learning
// columns' blocks θ by a gradient step towards predicting the first input,
// from the last step t (the engine's own gradient g_t = ∂y_t/∂θ):
//
//	θ ← θ + η·(x_t[0] − y_t)·g_t
//
// so that the displacements the test measures, and the steps it picks,
// depend on the data. After each freeze the new features' head weights (0 in
// the engine) are drawn and written into the engine.
//
// The parameters are then constant between changes, and the reference
// follows them piece by piece (reference.NetworkForwardFrom, the state
// carried across pieces and grown at each freeze): every prediction is
// compared. Within the first window of each stage the parameters have not
// moved since the stage began and the engine's RTRL gradient is exact: there
// the gradients are compared with the Gorgonia reference entered at the
// stage's first step e_s, from step e_s+1 on (the new head weights were
// written after step e_s).
func CheckAutoStaged(r *reference.Reference, spec AutoStagedSpec, tr Trajectory, rng *rand.Rand, defect forward.Defect) (AutoStaged, error) {
	return checkAutoStaged(r, spec, tr, rng, defect, 0)
}

// checkAutoStaged is CheckAutoStaged with the reference freezing each stage
// lag steps after the engine did (lag ≠ 0 only in tests of the check's teeth).
func checkAutoStaged(r *reference.Reference, spec AutoStagedSpec, tr Trajectory, rng *rand.Rand, defect forward.Defect, lag int) (AutoStaged, error) {
	K := spec.Freeze.Window
	if !spec.Freeze.On() || K < 2 || K > spec.Freeze.Min || spec.MaxFeatures <= spec.FeaturesPerStage {
		panic(fmt.Sprintf("compare: auto-staged check with %+v", spec))
	}
	net := forward.NewNetwork(forward.NetworkConfig{
		Inputs:           spec.Inputs,
		FeaturesPerStage: spec.FeaturesPerStage,
		MaxFeatures:      spec.MaxFeatures,
		Norm:             spec.Norm,
		AutoFreeze:       spec.Freeze,
	})
	net.Defect = defect
	fillUniform(rng, net.Params(), tr.Scale)

	// The engine's run; moves[t] is the step the check took before step t.
	T := len(tr.Xs)
	init := slices.Clone(net.Params())
	ys := make([]float64, T)
	grads := make([][]float64, T)
	moves := map[int][]float64{}
	fresh := map[int][]float64{} // per freeze step e: the engine's learnable vector at e
	heads := map[int][]float64{} // per freeze step e: the new head weights, from e+1
	var g []float64
	for t, x := range tr.Xs {
		if n := net.StepsInStage(); n > 0 && n%K == 0 {
			d := make([]float64, net.Topology().OffHead())
			p := net.Params()
			for i := range d {
				d[i] = spec.Rate * (tr.Xs[t-1][0] - ys[t-1]) * g[i]
				p[i] += d[i]
			}
			moves[t] = d
		}
		before := net.Features()
		ys[t] = net.Step(x)
		g = make([]float64, net.NumParams())
		net.Grad(g)
		grads[t] = g
		if net.Features() != before {
			top := net.Topology()
			fresh[t] = slices.Clone(net.Params())
			h := make([]float64, net.Features()-before)
			fillUniform(rng, h, tr.Scale)
			copy(net.Params()[top.OffHead()+before:top.OffHeadBias()], h)
			heads[t] = h
		}
	}
	out := AutoStaged{Ends: slices.Clone(net.StageEnds())}
	if len(out.Ends) != len(heads) {
		return out, fmt.Errorf("the engine reports stage ends %v but changed stage %d times", out.Ends, len(heads))
	}

	// The reference freezes at the engine's picks (plus lag), carrying the
	// parameters over itself, and applies the check's moves and head
	// weights at the steps the engine received them.
	type stage struct {
		begin, end    int // steps [begin, end) with the parameters below
		top           arch.Network
		frozen, learn []float64
		start         *reference.NetState
	}
	top := arch.Network{Inputs: spec.Inputs, Stages: []int{min(spec.FeaturesPerStage, spec.MaxFeatures)}, Norm: spec.Norm}
	frozen, learn := []float64{}, init
	freezeAt := map[int]int{} // reference step → engine step of the freeze
	for _, e := range out.Ends {
		freezeAt[e+lag] = e
	}
	var start *reference.NetState
	var stages []stage
	refYs := make([]float64, 0, T)
	for t := range tr.Xs {
		if d, ok := moves[t]; ok {
			if len(d) != top.OffHead() {
				return out, fmt.Errorf("step %d: the reference's learning stage has %d parameters, the engine's %d", t, top.OffHead(), len(d))
			}
			learn = slices.Clone(learn)
			for i, v := range d {
				learn[i] += v
			}
		}
		if e, ok := freezeAt[t]; ok {
			next := top.WithStage(min(spec.FeaturesPerStage, spec.MaxFeatures-top.Features()))
			frozen, learn = carried(top, next, frozen, learn, fresh[e], make([]float64, next.Features()-top.Features()))
			top = next
			start = start.Grow(top.Features())
		}
		if e, ok := freezeAt[t-1]; ok {
			learn = slices.Clone(learn)
			copy(learn[top.OffHead()+top.Features()-len(heads[e]):top.OffHeadBias()], heads[e])
		}
		if _, ok := freezeAt[t]; ok || t == 0 {
			if len(stages) > 0 {
				stages[len(stages)-1].end = min(stages[len(stages)-1].end, t)
			}
			stages = append(stages, stage{begin: t, end: T, top: top, frozen: frozen, start: start})
		}
		if st := &stages[len(stages)-1]; st.end == T {
			switch {
			case t == st.begin+1:
				st.learn = learn
			case t > st.begin+1 && moves[t] != nil:
				st.end = t
			}
		}
		y, _, end := reference.NetworkForwardFrom(top, frozen, learn, start, tr.Xs[t:t+1], nil)
		refYs = append(refYs, y[0])
		start = end
	}
	out.Predictions = Measure(ys, refYs)

	// The gradients over the first window of every stage.
	for _, st := range stages {
		if st.learn == nil || st.end-st.begin < 2 {
			continue // the trajectory ended within the stage's first step
		}
		xs := tr.Xs[st.begin:st.end]
		ref, err := networkTruth(r, st.top, st.frozen, st.learn, st.start, xs)
		if err != nil {
			return out, fmt.Errorf("stage from step %d: %w", st.begin, err)
		}
		a, err := agreeRecorded(ys[st.begin+1:st.end], grads[st.begin+1:st.end], rng, ref, 1)
		if err != nil {
			return out, fmt.Errorf("stage from step %d: %w", st.begin, err)
		}
		out.Stages = append(out.Stages, a)
	}
	return out, nil
}

// agreeRecorded is agree for an engine that has already run: ys and gs are
// its predictions and gradients at the steps shift+1 … of ref's trajectory.
func agreeRecorded(ys []float64, gs [][]float64, rng *rand.Rand, ref truth, shift int) (Agreement, error) {
	T := len(ys)
	for _, g := range gs {
		if len(g) != len(gs[0]) {
			return Agreement{}, fmt.Errorf("the engine's gradient changed length within a stage")
		}
	}
	a := weights(rng, T)
	combo := make([]float64, len(gs[0]))
	for t, g := range gs {
		for i, v := range g {
			combo[i] += a[t] * v
		}
	}
	worst := Measure(ys, ref.ys[shift:])
	for _, t := range checkTimes(T) {
		want, err := ref.at(t + shift)
		if err != nil {
			return worst, fmt.Errorf("reference at t=%d: %w", t+shift, err)
		}
		if len(want) != len(gs[t-1]) {
			return worst, fmt.Errorf("the reference has %d parameters, the engine %d", len(want), len(gs[t-1]))
		}
		worst = worst.Worst(Measure(gs[t-1], want))
	}
	want, err := ref.combo(append(make([]float64, shift), a...))
	if err != nil {
		return worst, fmt.Errorf("reference combination: %w", err)
	}
	return worst.Worst(Measure(combo, want)), nil
}
