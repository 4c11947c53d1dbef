package td

import (
	"fmt"
	"math"
	"slices"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/float"
	"github.com/ccn-go/ccn/internal/lanes"
)

// Agent is the online TD(λ) agent of paper Algorithm 1 (Appendix A.2) over an
// arch.EngineOf[T] (T = float64 for every engine but the opt-in float32
// engine, whose trace z, gradient and optimizer state are float32; δ, γ, λ
// and the predictions are float64 either way):
//
//	y = v(x_0); z = 0
//	loop: observe x', cumulant c
//	      y' = v(x')
//	      δ  = c + γ·y' − y
//	      z  = γλ·z + ∇v(x)         (gradient of the previous prediction y)
//	      θ  = θ + Optimizer(α, δ·z)
//	      y  = y'
//
// ∇v(x') is read from the learner right after Step(x'), before θ changes, and
// folded into z after the update, which is the same order of operations.
//
// Episodes (env.Episodic): after the step x of an episode's last step,
// EndEpisode marks x as done, and the transition out of it neither takes the
// next cumulant nor bootstraps, and cuts the trace (γ = 0 for that transition):
//
//	δ = 0 − y                       (target 0 = G on a done step)
//	z = 0·z + ∇v(x')                (no credit crosses the boundary)
//
// When a Staged learner adds a stage inside Step, the layout of θ changes: the
// agent moves z and the optimizer state with arch.Network.Remap (head weights and
// bias keep theirs; the frozen columns' entries are dropped; new entries start
// at zero trace and fresh optimizer state).
//
// After construction a step allocates nothing, except at a stage change.
type Agent[T arch.Float] struct {
	gamma, lambda float64

	learner arch.EngineOf[T]
	staged  Staged             // nil if the learner's layout never changes
	acc     GradAccumulator[T] // nil if the learner has no fused trace update
	opt     Optimizer[T]
	folder  TraceFolder[T] // opt, if it folds the trace update into its pass
	layout  Layout
	stage   int
	topo    arch.Network // Staged learners: the topology at stage

	z []T // eligibility trace
	g []T // ∇v of the newest prediction

	frozen *frozenLearning[T] // nil unless LearnFrozen

	y       float64
	started bool
	done    bool // the observation of y was the last of its episode
}

// New returns an agent for learner l with discount γ and trace decay λ.
// layout describes l's parameter vector (for a Staged learner it is recomputed
// from Topology at every stage change). The optimizer is Reset to layout. It
// panics if layout does not match l or γ, λ are outside [0, 1]. T is
// inferred from the learner.
func New[T arch.Float](l arch.EngineOf[T], layout Layout, opt Optimizer[T], gamma, lambda float64) *Agent[T] {
	layout.validate()
	if layout.Size != l.NumParams() || len(l.Params()) != l.NumParams() {
		panic(fmt.Sprintf("td: layout size %d, learner has %d parameters", layout.Size, l.NumParams()))
	}
	if !(gamma >= 0 && gamma <= 1) || !(lambda >= 0 && lambda <= 1) {
		panic(fmt.Sprintf("td: γ = %v and λ = %v must lie in [0, 1]", gamma, lambda))
	}
	a := &Agent[T]{gamma: gamma, lambda: lambda, learner: l, opt: opt, layout: layout}
	a.acc, _ = l.(GradAccumulator[T])
	a.folder, _ = opt.(TraceFolder[T])
	if s, ok := l.(Staged); ok {
		a.staged = s
		a.stage = s.Stage()
		a.topo = s.Topology()
		a.topo.Stages = slices.Clone(a.topo.Stages)
	}
	opt.Reset(layout)
	a.resize(layout.Size)
	return a
}

func (a *Agent[T]) resize(n int) {
	a.z = make([]T, n)
	a.g = make([]T, n)
}

// Start makes the first prediction y = v(x_0) and returns it; call it once,
// before Step.
func (a *Agent[T]) Start(x []float64) float64 {
	if a.started {
		panic("td: Agent.Start called twice")
	}
	a.started = true
	a.y = a.learner.Step(x)
	a.checkStage()
	a.learner.Grad(a.g)
	copy(a.z, a.g)
	if a.frozen != nil {
		a.frozen.start()
	}
	return a.y
}

// Step observes x' and the cumulant c of the transition into it, updates θ and
// returns the new prediction y' = v(x'). ok is false if y' is NaN or ±Inf
// (the run has diverged); see also ParamsFinite.
func (a *Agent[T]) Step(x []float64, c float64) (y float64, ok bool) {
	if !a.started {
		panic("td: Agent.Step before Start")
	}
	y = a.learner.Step(x)
	a.checkStage()
	fused := a.acc != nil
	if !fused {
		a.learner.Grad(a.g) // before θ changes
	}
	target, decay := c+a.gamma*y, a.gamma*a.lambda
	if a.done { // leaving an episode's last step: γ = 0, no cumulant
		target, decay, a.done = 0, 0, false
	}
	delta := target - a.y
	// The direction δ·z uses z before ∇v(x') is folded in.
	switch {
	case fused:
		a.opt.Update(a.learner.Params(), a.z, delta)
		a.acc.AccumulateGrad(a.z, decay)
	case a.folder != nil:
		// z ← decay·z + 1·g in the optimizer's pass.
		a.folder.UpdateFold(a.learner.Params(), a.z, delta, decay, a.g)
	default:
		a.opt.Update(a.learner.Params(), a.z, delta)
		// z ← decay·z + 1·g, in lanes (1·g is g exactly).
		scaleAdd(a.z, decay, a.g)
	}
	if a.frozen != nil {
		a.frozen.step(delta, decay)
	}
	a.y = y
	return y, !math.IsNaN(y) && !math.IsInf(y, 0)
}

// EndEpisode marks the observation of the latest Start or Step as the last
// step of its episode: the next Step's target is 0 and its trace decay 0.
func (a *Agent[T]) EndEpisode() {
	if !a.started {
		panic("td: Agent.EndEpisode before Start")
	}
	a.done = true
}

// ParamsFinite reports whether every learnable parameter is finite. A NaN
// parameter shows in the next prediction, but an infinite one can hide in a
// saturated gate, so a run checks this too (every few thousand steps: the
// check costs as much as a fifth of a small network's step).
func (a *Agent[T]) ParamsFinite() bool {
	return allFinite(a.learner.Params()) && (a.frozen == nil || allFinite(a.frozen.learner.Frozen()))
}

// checkStage remaps the trace and optimizer state after a stage change.
func (a *Agent[T]) checkStage() {
	if a.staged == nil || a.staged.Stage() == a.stage {
		return
	}
	next := a.staged.Topology()
	next.Stages = slices.Clone(next.Stages)
	from := a.topo.Remap(next)
	if a.frozen != nil {
		a.frozen.grow(a.topo, a.z)
	}
	a.topo = next
	a.layout = NetworkLayout(next)
	a.opt.Remap(a.layout, from)
	z := remapInto(a.z, from, 0)
	a.resize(a.layout.Size)
	a.z = z
	a.stage = a.staged.Stage()
	if a.layout.Size != a.learner.NumParams() {
		panic(fmt.Sprintf("td: learner has %d parameters after stage change, layout says %d", a.learner.NumParams(), a.layout.Size))
	}
}

// Prediction returns the latest prediction.
func (a *Agent[T]) Prediction() float64 { return a.y }

// Trace returns a view of the eligibility trace z (in the current layout).
func (a *Agent[T]) Trace() []T { return a.z }

// Layout returns the current layout of the learner's parameter vector.
func (a *Agent[T]) Layout() Layout { return a.layout }

// allFinite reports whether every entry of p is finite: x·0 is 0 for finite
// x and NaN for NaN or ±Inf.
func allFinite[T arch.Float](p []T) bool {
	bad := 0.0
	for _, v := range p {
		bad += float64(v) * 0
	}
	return bad == 0
}

// scaleAdd sets z ← d·z + 1·g with the kernel of T's lanes.
func scaleAdd[T arch.Float](z []T, d float64, g []T) {
	if float.Is32[T]() {
		lanes.ScaleAddSame32(float.F32(z), d, 1, float.F32(g))
		return
	}
	lanes.ScaleAdd(float.F64(z), d, 1, float.F64(g))
}
