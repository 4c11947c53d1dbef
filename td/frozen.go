package td

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// FrozenLearner is implemented by staged learners whose frozen parameters
// can keep learning: forward.Network with FrozenTraces. FrozenGrad gives,
// from what the last Step stored, the gradient of its prediction along
// each frozen column's own recurrence and head weight (an approximation of
// ∂y/∂θ_frozen that leaves out the paths through later columns).
type FrozenLearner[T arch.Float] interface {
	Frozen() []T
	FrozenGrad(dst []T)
}

// frozenLearning is the TD(λ) update of the frozen parameters θ_f (Agent.LearnFrozen):
//
//	z_f = γλ·z_f + g̃(x)        θ_f = θ_f + Optimizer_f(δ·z_f)
//
// with the δ and trace decay of the learnable parameters' update.
type frozenLearning[T arch.Float] struct {
	learner FrozenLearner[T]
	opt     Optimizer[T]
	z, g    []T
}

// LearnFrozen makes the agent update the frozen parameters of its learner
// too (a FrozenLearner, which must be Staged), with optimizer opt, whose
// step size is the frozen stages' own (a fraction of the learnable
// parameters', so that frozen features keep learning slowly: the paper's
// §6). Their eligibility trace follows the learner's FrozenGrad. At a stage
// change the newly frozen columns keep their eligibility trace and start a
// fresh optimizer state. Call it before Start; it panics if the learner
// cannot.
func (a *Agent[T]) LearnFrozen(opt Optimizer[T]) {
	fl, ok := a.learner.(FrozenLearner[T])
	if !ok || a.staged == nil {
		panic(fmt.Sprintf("td: LearnFrozen with a learner (%T) without frozen stages", a.learner))
	}
	if a.started {
		panic("td: LearnFrozen after Start")
	}
	a.frozen = &frozenLearning[T]{learner: fl, opt: opt}
	a.frozen.resize(len(fl.Frozen()))
}

// frozenLayout is the Layout of a frozen vector of n ≥ 1 entries: no head.
func frozenLayout(n int) Layout { return Layout{Size: n, HeadStart: n, HeadEnd: n, Features: 1} }

// resize sizes the trace and the optimizer for a frozen vector of n entries
// from nothing (at LearnFrozen).
func (f *frozenLearning[T]) resize(n int) {
	f.z, f.g = make([]T, n), make([]T, n)
	if n > 0 {
		f.opt.Reset(frozenLayout(n))
	}
}

// start folds the gradient of the first prediction into the trace.
func (f *frozenLearning[T]) start() {
	if len(f.z) > 0 {
		f.learner.FrozenGrad(f.z)
	}
}

// step updates θ_f along δ·z_f, then folds the gradient of the newest
// prediction into z_f.
func (f *frozenLearning[T]) step(delta, decay float64) {
	if len(f.z) == 0 {
		return
	}
	f.opt.Update(f.learner.Frozen(), f.z, delta)
	f.learner.FrozenGrad(f.g)
	scaleAdd(f.z, decay, f.g)
}

// grow follows a stage change that froze the learning blocks of the old
// learnable trace zLearn (old.OffHead() entries): they join the frozen
// trace, and the optimizer gives them a fresh state.
func (f *frozenLearning[T]) grow(old arch.Network, zLearn []T) {
	n := len(f.learner.Frozen())
	z := make([]T, n)
	copy(z, f.z)
	copy(z[len(f.z):], zLearn[:old.OffHead()])
	from := make([]int, n)
	for i := range from {
		from[i] = -1
		if i < len(f.z) {
			from[i] = i
		}
	}
	if len(f.z) == 0 {
		f.opt.Reset(frozenLayout(n))
	} else {
		f.opt.Remap(frozenLayout(n), from)
	}
	f.z, f.g = z, make([]T, n)
}
