package td

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTDMatchesAlgorithm1 checks the agent against a literal transcription of
// paper Algorithm 1 for a linear learner and plain gradient steps.
func TestTDMatchesAlgorithm1(t *testing.T) {
	const n, steps = 5, 200
	const gamma, lambda, alpha = 0.9, 0.8, 0.05
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([][]float64, steps+1)
	cs := make([]float64, steps+1)
	for i := range xs {
		xs[i] = make([]float64, n)
		for j := range xs[i] {
			xs[i][j] = rng.NormFloat64()
		}
		cs[i] = rng.Float64()
	}

	// Algorithm 1, written out.
	theta := make([]float64, n)
	z := make([]float64, n)
	v := func(x []float64) float64 {
		s := 0.0
		for j := range x {
			s += theta[j] * x[j]
		}
		return s
	}
	x := xs[0]
	y := v(x)
	want := make([]float64, 0, steps)
	for i := 1; i <= steps; i++ {
		xn, c := xs[i], cs[i]
		yn := v(xn)
		delta := c + gamma*yn - y
		for j := range z {
			z[j] = lambda*gamma*z[j] + x[j] // ∇v(x) = x for a linear learner
		}
		for j := range theta {
			theta[j] += alpha * delta * z[j]
		}
		want = append(want, yn)
		x, y = xn, yn
	}

	l := newLinear(n)
	a := New(l, Layout{Size: n, HeadStart: 0, HeadEnd: n, Features: n}, &sgd{alpha}, gamma, lambda)
	assert.Equal(t, 0.0, a.Start(xs[0]))
	for i := 1; i <= steps; i++ {
		got, ok := a.Step(xs[i], cs[i])
		require.True(t, ok)
		assert.InDelta(t, want[i-1], got, 1e-12, "step %d", i)
	}
	for j := range theta {
		assert.InDelta(t, theta[j], l.theta[j], 1e-12)
	}
}

func TestTDDetectsDivergence(t *testing.T) {
	l := newLinear(2)
	a := New(l, Layout{Size: 2, HeadEnd: 2, Features: 2}, &sgd{1e300}, 0.9, 0.9)
	a.Start([]float64{1, 1})
	diverged := false
	for range 10 {
		if _, ok := a.Step([]float64{1e10, 1e10}, 1e10); !ok {
			diverged = true
			break
		}
	}
	assert.True(t, diverged)

	l2 := newLinear(2)
	b := New(l2, Layout{Size: 2, HeadEnd: 2, Features: 2}, &sgd{0}, 0.9, 0.9)
	assert.True(t, b.ParamsFinite())
	l2.theta[1] = math.Inf(-1)
	assert.False(t, b.ParamsFinite())
	l2.theta[1] = math.NaN()
	assert.False(t, b.ParamsFinite())
}

// TestTDRemapsAtStageChange checks that the trace of the head weights and bias
// follows them to their new positions, and that new entries start at zero
// trace plus their first gradient.
func TestTDRemapsAtStageChange(t *testing.T) {
	const m, u, every = 3, 2, 4
	const gamma, lambda = 0.9, 0.5
	l := newStaged(m, u, every)
	opt := &RMSProp{StepSize: 1e-3}
	a := New(l, NetworkLayout(l.topo), opt, gamma, lambda)
	x := []float64{1, 2, 3}
	a.Start(x)
	for range every - 1 {
		a.Step(x, 0.5)
	}
	before := l.topo
	zHead := append([]float64(nil), a.Trace()[before.OffHead():]...)
	vHead := append([]float64(nil), opt.v[before.OffHead():]...)
	require.Equal(t, 0, l.Stage())

	a.Step(x, 0.5) // the learner adds stage 1 inside this Step
	after := l.topo
	require.Equal(t, 1, l.Stage())
	require.Len(t, a.Trace(), after.NumLearnable())
	assert.Equal(t, NetworkLayout(after), a.Layout())
	z := a.Trace()
	g := make([]float64, after.NumLearnable())
	l.Grad(g)
	decay := gamma * lambda
	for k := range before.Features() {
		assert.InDelta(t, decay*zHead[k]+g[after.OffHead()+k], z[after.OffHead()+k], 1e-15, "head %d", k)
		assert.Greater(t, opt.v[after.OffHead()+k], 0.0)
		assert.NotEqual(t, 1.0, opt.v[after.OffHead()+k], "head %d kept its accumulator", k)
	}
	assert.InDelta(t, decay*zHead[before.Features()]+1, z[after.OffHeadBias()], 1e-15)
	for k := before.Features(); k < after.Features(); k++ {
		assert.Equal(t, g[after.OffHead()+k], z[after.OffHead()+k], "new head %d starts at its gradient", k)
	}
	for i := range after.OffHead() {
		assert.Equal(t, 0.5, z[i], "new column entry %d starts at its gradient", i)
		// A fresh accumulator (1) decayed once by a zero direction (their trace was 0).
		assert.InDelta(t, 0.9999, opt.v[i], 1e-15, "new column entry %d has a fresh accumulator", i)
	}
	assert.Len(t, vHead, before.Features()+1)
}

func TestTDZeroAllocs(t *testing.T) {
	for _, opt := range []Optimizer[float64]{&Adam{StepSize: 1e-3}, &RMSProp{StepSize: 1e-3}} {
		l := newStaged(12, 4, 0)
		a := New(l, NetworkLayout(l.topo), opt, 0.9, 0.99)
		x := make([]float64, 12)
		a.Start(x)
		allocs := testing.AllocsPerRun(100, func() { a.Step(x, 1) })
		assert.Equal(t, 0.0, allocs)
	}
}

func TestNewPanics(t *testing.T) {
	l := newLinear(3)
	assert.PanicsWithValue(t, "td: layout size 2, learner has 3 parameters", func() {
		New(l, Layout{Size: 2, HeadEnd: 2, Features: 1}, &sgd{}, 0.9, 0.9)
	})
	assert.Panics(t, func() { New(l, Layout{Size: 3, HeadEnd: 3, Features: 1}, &sgd{}, math.NaN(), 0.9) })
	assert.Panics(t, func() { New(l, Layout{Size: 3, HeadEnd: 3, Features: 1}, &sgd{}, 0.9, 1.5) })
}
