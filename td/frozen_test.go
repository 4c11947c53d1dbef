package td

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// frozenStaged is staged with frozen parameters that do not reach the
// prediction and a frozen gradient of 0.25 everywhere.
type frozenStaged struct {
	*staged
	frozen []float64
}

func (f *frozenStaged) Frozen() []float64 {
	if n := f.topo.NumFrozen(); len(f.frozen) != n {
		f.frozen = append(f.frozen, make([]float64, n-len(f.frozen))...)
	}
	return f.frozen
}

func (f *frozenStaged) FrozenGrad(dst []float64) {
	for i := range dst {
		dst[i] = 0.25
	}
}

var _ FrozenLearner[float64] = (*frozenStaged)(nil)

// TestTDLearnsFrozen: with LearnFrozen, nothing happens while no stage is
// frozen; at a stage change the frozen trace takes the learning blocks'
// eligibility trace, the frozen parameters step along δ·z_f with their own
// optimizer, and z_f then decays and gains the frozen gradient, as in
//
//	θ_f = θ_f + α_f·δ·z_f        z_f = γλ·z_f + g̃
func TestTDLearnsFrozen(t *testing.T) {
	const m, u, every = 3, 2, 4
	const gamma, lambda, alphaF = 0.9, 0.5, 0.1
	l := &frozenStaged{staged: newStaged(m, u, every)}
	a := New(l, NetworkLayout(l.topo), &sgd{alpha: 1e-3}, gamma, lambda)
	a.LearnFrozen(&sgd{alpha: alphaF})
	x := []float64{1, 2, 3}
	y := a.Start(x)
	for range every - 1 {
		y, _ = a.Step(x, 0.5)
	}
	require.Empty(t, l.Frozen())
	before := l.topo
	zLearn := append([]float64(nil), a.Trace()[:before.OffHead()]...)

	yNext, _ := a.Step(x, 0.5) // the learner adds stage 1 inside this Step
	require.Equal(t, 1, l.Stage())
	delta := 0.5 + gamma*yNext - y
	require.NotZero(t, delta)
	frozen := l.Frozen()
	require.Len(t, frozen, before.OffHead())
	decay := gamma * lambda
	for i, z := range zLearn {
		assert.InDelta(t, alphaF*delta*z, frozen[i], 1e-15, "θ_f[%d]", i)
		assert.InDelta(t, decay*z+0.25, a.frozen.z[i], 1e-15, "z_f[%d]", i)
	}

	// One more step: θ_f moves along the new z_f.
	zF := append([]float64(nil), a.frozen.z...)
	theta := append([]float64(nil), frozen...)
	yAfter, _ := a.Step(x, 0.5)
	delta = 0.5 + gamma*yAfter - yNext
	for i := range zF {
		assert.InDelta(t, theta[i]+alphaF*delta*zF[i], l.Frozen()[i], 1e-15, "θ_f[%d]", i)
	}
	assert.True(t, a.ParamsFinite())
	l.Frozen()[0] = 1 / zero()
	assert.False(t, a.ParamsFinite(), "an infinite frozen parameter is seen")

	assert.Panics(t, func() {
		New(newLinear(2), Layout{Size: 2, HeadStart: 2, HeadEnd: 2, Features: 1}, &sgd{}, 0.9, 0.5).LearnFrozen(&sgd{})
	})
	assert.Panics(t, func() { a.LearnFrozen(&sgd{}) }, "after Start")
}

func zero() float64 { return 0 }

// A step that also learns the frozen parameters allocates nothing.
func TestTDLearnsFrozenZeroAllocs(t *testing.T) {
	l := &frozenStaged{staged: newStaged(12, 4, 2)}
	a := New(l, NetworkLayout(l.topo), &RMSProp{StepSize: 1e-3}, 0.9, 0.99)
	a.LearnFrozen(&RMSProp{StepSize: 1e-4})
	x := make([]float64, 12)
	a.Start(x)
	a.Step(x, 1)
	a.Step(x, 1) // stage 1: one frozen stage
	l.every = 0  // no more stage changes
	require.NotEmpty(t, l.Frozen())
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.Step(x, 1) }))
}
