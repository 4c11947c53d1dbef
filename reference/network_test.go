package reference

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// medianSigma returns the median of σ over all steps and features of a run with
// a negligible floor, so that an ε set to it is active for about half of them.
func medianSigma(top arch.Network, frozen, learnable []float64, xs [][]float64) float64 {
	top.Norm.Epsilon = 1e-300
	_, stats := NetworkForward(top, frozen, learnable, xs, nil)
	var all []float64
	for _, row := range stats.Scale {
		all = append(all, row...)
	}
	sort.Float64s(all)
	return all[len(all)/2]
}

func TestNetworkMatchesFiniteDifferences(t *testing.T) {
	const m, steps = 3, 10
	on := arch.Normalization{Enabled: true, Decay: 0.5}
	tests := []struct {
		name string
		top  arch.Network
	}{
		{"columnar3/norm=off", arch.Columnar(m, 3, arch.Normalization{})},
		{"columnar3/norm=on", arch.Columnar(m, 3, on)},
		{"ccn u=2 stage2/norm=off", arch.CCN(m, 2, 2, arch.Normalization{})},
		{"ccn u=2 stage2/norm=on", arch.CCN(m, 2, 2, on)},
		{"constructive stage2/norm=on", arch.CCN(m, 1, 2, on)},
	}
	r := New()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(i)))
			top := tt.top
			frozen := uniform(rng, top.NumFrozen(), 0.8)
			learnable := uniform(rng, top.NumLearnable(), 0.8)
			xs := inputs(rng, steps, m)
			a := uniform(rng, steps, 1)
			if top.Norm.Enabled {
				top.Norm.Epsilon = medianSigma(top, frozen, learnable, xs)
			}

			ys, grad, err := r.Network(top, frozen, learnable, xs, a)
			require.NoError(t, err)

			plain, stats := NetworkForward(top, frozen, learnable, xs, nil)
			assert.InDeltaSlice(t, plain, ys, 1e-12)
			if top.Norm.Enabled {
				floored, free := 0, 0
				for _, row := range stats.Scale {
					for _, s := range row {
						if s == top.Norm.Epsilon {
							floored++
						} else {
							free++
						}
					}
				}
				assert.Positive(t, floored, "ε should be active for some features")
				assert.Positive(t, free, "ε should be inactive for some features")
			}
			fd := centralDiff(learnable, func() float64 {
				ys, _ := NetworkForward(top, frozen, learnable, xs, stats)
				return weighted(a, ys)
			})
			assertRelClose(t, fd, grad, fdTol, "gradient")
			assertNotTrivial(t, grad)
		})
	}
}

// A Columnar network of one column without normalization is the dense LSTM
// with H = 1 plus a head bias: the two layouts and graphs must agree.
func TestNetworkColumnIsDenseUnit(t *testing.T) {
	const m, steps = 4, 9
	rng := rand.New(rand.NewPCG(8, 9))
	top := arch.Columnar(m, 1, arch.Normalization{})
	dense := arch.Dense{Hidden: 1, Inputs: m}
	learnable := uniform(rng, top.NumLearnable(), 0.8)
	xs := inputs(rng, steps, m)
	a := uniform(rng, steps, 1)
	bias := learnable[top.OffHeadBias()]
	params := learnable[:top.OffHeadBias()] // column block then w: the dense layout

	r := New()
	netYs, netGrad, err := r.Network(top, nil, learnable, xs, a)
	require.NoError(t, err)
	denseYs, denseGrad, err := r.Dense(dense, params, xs, a)
	require.NoError(t, err)
	for t1 := range netYs {
		assert.InDelta(t, denseYs[t1]+bias, netYs[t1], 1e-12)
	}
	assert.InDeltaSlice(t, denseGrad, netGrad[:top.OffHeadBias()], 1e-12)
	sumA := 0.0
	for _, v := range a {
		sumA += v
	}
	assert.InDelta(t, sumA, netGrad[top.OffHeadBias()], 1e-12, "∂L/∂b = Σ a_t")
}

func TestNetworkFixedStatsReproduceRun(t *testing.T) {
	top := arch.CCN(3, 2, 1, arch.Normalization{Enabled: true, Decay: 0.7, Epsilon: 0.01})
	rng := rand.New(rand.NewPCG(10, 11))
	frozen := uniform(rng, top.NumFrozen(), 0.8)
	learnable := uniform(rng, top.NumLearnable(), 0.8)
	xs := inputs(rng, 6, 3)
	ys, stats := NetworkForward(top, frozen, learnable, xs, nil)
	again, same := NetworkForward(top, frozen, learnable, xs, stats)
	assert.Equal(t, ys, again)
	assert.Same(t, stats, same)
	// Statistics of the first step follow from μ_0 = 0, σ²_0 = 1 alone.
	_, fresh := NetworkForward(top, frozen, learnable, xs[:1], nil)
	assert.Equal(t, stats.Mean[0], fresh.Mean[0])
}

func TestNetworkPanics(t *testing.T) {
	top := arch.CCN(3, 2, 1, arch.Normalization{})
	r := New()
	frozen, learnable := make([]float64, top.NumFrozen()), make([]float64, top.NumLearnable())
	xs := [][]float64{{1, 2, 3}}
	assert.PanicsWithValue(t, "reference: network vectors have lengths 39, 61, want 40, 61",
		func() { r.Network(top, frozen[1:], learnable, xs, nil) })
	assert.PanicsWithValue(t, "reference: no inputs", func() { r.Network(top, frozen, learnable, nil, nil) })
	assert.PanicsWithValue(t, "reference: input 0 has length 2, want 3",
		func() { r.Network(top, frozen, learnable, [][]float64{{1, 2}}, nil) })
}

// A network entered from the state another run ended in continues that run:
// splitting a trajectory in two and passing the state gives the outputs of the
// whole, and the graph entered from a nonzero state (the frozen columns' h, c
// and statistics after a stage change) matches finite differences of the
// plain pass from the same state.
func TestNetworkFromState(t *testing.T) {
	const m, steps, cut = 3, 14, 6
	r := New()
	for _, norm := range []arch.Normalization{{}, {Enabled: true, Decay: 0.8}} {
		top := arch.CCN(m, 2, 2, norm)
		rng := rand.New(rand.NewPCG(21, 3))
		frozen := uniform(rng, top.NumFrozen(), 0.8)
		learnable := uniform(rng, top.NumLearnable(), 0.8)
		xs := inputs(rng, steps, m)

		whole, _ := NetworkForward(top, frozen, learnable, xs, nil)
		first, _, mid := NetworkForwardFrom(top, frozen, learnable, nil, xs[:cut], nil)
		second, _, _ := NetworkForwardFrom(top, frozen, learnable, mid, xs[cut:], nil)
		assert.Equal(t, whole, append(first, second...), "norm=%t", norm.Enabled)
		assert.NotEqual(t, ZeroState(top.Features()), mid, "the state moved")

		a := uniform(rng, steps-cut, 1)
		ys, grad, err := r.NetworkFrom(top, frozen, learnable, mid, xs[cut:], a)
		require.NoError(t, err)
		assert.InDeltaSlice(t, second, ys, 1e-12)
		_, stats, _ := NetworkForwardFrom(top, frozen, learnable, mid, xs[cut:], nil)
		fd := centralDiff(learnable, func() float64 {
			ys, _, _ := NetworkForwardFrom(top, frozen, learnable, mid, xs[cut:], stats)
			return weighted(a, ys)
		})
		assertRelClose(t, fd, grad, fdTol, "gradient from a state")
		// The cached graph is entered from zero again when no state is given.
		zero, _, err := r.Network(top, frozen, learnable, xs[cut:], a)
		require.NoError(t, err)
		plain, _ := NetworkForward(top, frozen, learnable, xs[cut:], nil)
		assert.InDeltaSlice(t, plain, zero, 1e-12)
	}
}

func TestNetStateGrow(t *testing.T) {
	s := &NetState{H: []float64{1}, C: []float64{2}, Mean: []float64{3}, Variance: []float64{4}}
	g := s.Grow(3)
	assert.Equal(t, &NetState{H: []float64{1, 0, 0}, C: []float64{2, 0, 0}, Mean: []float64{3, 0, 0}, Variance: []float64{4, 1, 1}}, g)
	g.H[0] = 9
	assert.Equal(t, 1.0, s.H[0], "Grow copies")
	assert.Panics(t, func() { g.Grow(2) })
}
