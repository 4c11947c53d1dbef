package reference

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// Running a cached graph again with other inputs must give exactly what a fresh
// Reference gives: nothing accumulates across runs (no dual values, no stale
// registers) and returned slices are not overwritten by later runs.
func TestCachedGraphsDoNotAccumulate(t *testing.T) {
	shape := arch.Dense{Hidden: 3, Inputs: 2}
	top := arch.CCN(2, 2, 1, arch.Normalization{Enabled: true, Decay: 0.5, Epsilon: 0.05})
	type call struct {
		params, frozen, learnable, a []float64
		xs                           [][]float64
	}
	rng := rand.New(rand.NewPCG(12, 13))
	calls := make([]call, 3)
	for i := range calls {
		calls[i] = call{
			params:    uniform(rng, shape.NumParams(), 0.8),
			frozen:    uniform(rng, top.NumFrozen(), 0.8),
			learnable: uniform(rng, top.NumLearnable(), 0.8),
			a:         uniform(rng, 8, 1),
			xs:        inputs(rng, 8, 2),
		}
	}
	type result struct{ dys, dgrad, tys, tgrad, nys, ngrad []float64 }
	runAll := func(r *Reference, c call) result {
		var res result
		var err error
		res.dys, res.dgrad, err = r.Dense(shape, c.params, c.xs, c.a)
		require.NoError(t, err)
		res.tys, res.tgrad, err = r.DenseTruncated(shape, c.params, c.xs, 8, 3)
		require.NoError(t, err)
		res.nys, res.ngrad, err = r.Network(top, c.frozen, c.learnable, c.xs, c.a)
		require.NoError(t, err)
		return res
	}

	cached := New()
	var got []result
	for _, c := range append(calls, calls[0]) {
		got = append(got, runAll(cached, c))
	}
	for i, c := range append(calls, calls[0]) {
		want := runAll(New(), c)
		assert.Equal(t, want, got[i], "call %d", i)
	}
	// T = 8 runs in windows of 2 steps (DefaultMaxUnroll), T-BPTT's k = 3 in
	// windows of 1 and 2: one graph per window length.
	assert.Len(t, cached.dense, 2, "one dense graph per window length")
	assert.Len(t, cached.network, 1)
}
