package td

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fusedLinear is linear with the fused trace update of GradAccumulator.
type fusedLinear struct{ *linear }

func (l fusedLinear) AccumulateGrad(z []float64, decay float64) {
	for i, x := range l.x {
		z[i] = decay*z[i] + x
	}
}

// algorithm1Episodic is paper Algorithm 1 written out with episode ends, for a
// linear learner and plain gradient steps: each transition i−1 → i has its
// own discount γ_i, 0 when x_{i−1} was an episode's last step (its return is
// 0, so its target is 0 and the next cumulant is not taken), and the trace
// decays by γ_{i−1}·λ when ∇v(x_{i−1}) is added:
//
//	δ_i = [¬done_{i−1}]·c_i + γ_i·v(x_i) − v(x_{i−1})
//	z   = γ_{i−1}·λ·z + x_{i−1}
//	θ   = θ + α·δ_i·z
//
// It returns the predictions v(x_i) for i = 1…, and θ at the end.
func algorithm1Episodic(xs [][]float64, cs []float64, done []bool, gamma, lambda, alpha float64) ([]float64, []float64) {
	n := len(xs[0])
	theta := make([]float64, n)
	z := make([]float64, n)
	v := func(x []float64) float64 {
		s := 0.0
		for j := range x {
			s += theta[j] * x[j]
		}
		return s
	}
	disc := func(i int) float64 { // γ_i of the transition i−1 → i
		if i == 0 || done[i-1] {
			return 0
		}
		return gamma
	}
	var ys []float64
	y := v(xs[0])
	for i := 1; i < len(xs); i++ {
		yn := v(xs[i])
		c := cs[i]
		if done[i-1] {
			c = 0
		}
		delta := c + disc(i)*yn - y
		for j := range z {
			z[j] = disc(i-1)*lambda*z[j] + xs[i-1][j]
		}
		for j := range theta {
			theta[j] += alpha * delta * z[j]
		}
		ys = append(ys, yn)
		y = yn
	}
	return ys, theta
}

// TestTDEpisodesMatchAlgorithm1 checks EndEpisode against the transcription,
// with and without the fused trace update, over a stream with episodes of
// random lengths (including one-step episodes and a done first step).
func TestTDEpisodesMatchAlgorithm1(t *testing.T) {
	const n, steps = 4, 300
	const gamma, lambda, alpha = 0.9, 0.8, 0.05
	rng := rand.New(rand.NewPCG(3, 4))
	xs := make([][]float64, steps)
	cs := make([]float64, steps)
	done := make([]bool, steps)
	for i := range xs {
		xs[i] = make([]float64, n)
		for j := range xs[i] {
			xs[i][j] = rng.NormFloat64()
		}
		cs[i] = rng.Float64()
		done[i] = rng.IntN(7) == 0
	}
	done[0], done[1] = true, true
	require.Contains(t, done[2:], true)

	want, wantTheta := algorithm1Episodic(xs, cs, done, gamma, lambda, alpha)
	for _, fused := range []bool{false, true} {
		l := newLinear(n)
		var learner arch.Engine = l
		if fused {
			learner = fusedLinear{l}
		}
		a := New(learner, Layout{Size: n, HeadEnd: n, Features: n}, &sgd{alpha}, gamma, lambda)
		a.Start(xs[0])
		if done[0] {
			a.EndEpisode()
		}
		for i := 1; i < steps; i++ {
			got, ok := a.Step(xs[i], cs[i])
			require.True(t, ok)
			require.InDelta(t, want[i-1], got, 1e-12, "fused %v step %d", fused, i)
			if done[i] {
				a.EndEpisode()
			}
		}
		assert.InDeltaSlice(t, wantTheta, l.theta, 1e-12, "fused %v", fused)
	}

	// Teeth: without EndEpisode the agent bootstraps across the boundaries
	// and its predictions leave the transcription's.
	l := newLinear(n)
	a := New(l, Layout{Size: n, HeadEnd: n, Features: n}, &sgd{alpha}, gamma, lambda)
	a.Start(xs[0])
	differ := false
	for i := 1; i < steps; i++ {
		got, _ := a.Step(xs[i], cs[i])
		if d := got - want[i-1]; d > 1e-9 || d < -1e-9 {
			differ = true
		}
	}
	assert.True(t, differ, "a stream without episode ends must learn differently")
}

func TestTDEndEpisodeBeforeStartPanics(t *testing.T) {
	a := New(newLinear(1), Layout{Size: 1, HeadEnd: 1, Features: 1}, &sgd{0.1}, 0.9, 0.9)
	assert.PanicsWithValue(t, "td: Agent.EndEpisode before Start", a.EndEpisode)
}
