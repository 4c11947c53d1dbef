package reference

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

func TestChunks(t *testing.T) {
	assert.Equal(t, []int{0, 3, 7, 11}, chunks(11, 4))
	assert.Equal(t, []int{0, 4, 8}, chunks(8, 4))
	assert.Equal(t, []int{0, 3}, chunks(3, 4))
	assert.Equal(t, []int{0, 1, 3, 5}, chunks(5, 0), "0 means DefaultMaxUnroll = 2")
}

// Windows chained through the adjoint of their state give the gradient of one
// long graph: dense (full and truncated, with and without the output bias)
// and networks (from the zero state and from a carried one), with windows of
// 1, 4 and 7 steps against one graph of every step.
func TestChunkedEqualsUnrolled(t *testing.T) {
	const T = 11
	whole := New()
	whole.MaxUnroll = 1000
	for _, n := range []int{1, 4, 7} {
		r := New()
		r.MaxUnroll = n
		t.Run(fmt.Sprint("window=", n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(n)))
			for _, shape := range []arch.Dense{{Hidden: 1, Inputs: 2}, {Hidden: 3, Inputs: 2, OutBias: true}} {
				params := uniform(rng, shape.NumParams(), 0.8)
				xs := inputs(rng, T, shape.Inputs)
				a := uniform(rng, T, 1)
				ys, g, err := r.Dense(shape, params, xs, a)
				require.NoError(t, err)
				ys1, g1, err := whole.Dense(shape, params, xs, a)
				require.NoError(t, err)
				assert.InDeltaSlice(t, ys1, ys, 1e-13)
				assertRelClose(t, g1, g, 1e-12, "dense gradient")
				_, g, err = r.DenseTruncated(shape, params, xs, 10, 8)
				require.NoError(t, err)
				_, g1, err = whole.DenseTruncated(shape, params, xs, 10, 8)
				require.NoError(t, err)
				assertRelClose(t, g1, g, 1e-12, "truncated gradient")
			}
			top := arch.CCN(3, 2, 1, arch.Normalization{Enabled: true, Decay: 0.7})
			frozen := uniform(rng, top.NumFrozen(), 0.8)
			learn := uniform(rng, top.NumLearnable(), 0.8)
			xs := inputs(rng, T, 3)
			a := uniform(rng, T, 1)
			_, _, mid := NetworkForwardFrom(top, frozen, learn, nil, inputs(rng, 5, 3), nil)
			for _, start := range []*NetState{nil, mid} {
				ys, g, err := r.NetworkFrom(top, frozen, learn, start, xs, a)
				require.NoError(t, err)
				ys1, g1, err := whole.NetworkFrom(top, frozen, learn, start, xs, a)
				require.NoError(t, err)
				assert.InDeltaSlice(t, ys1, ys, 1e-13)
				assertRelClose(t, g1, g, 1e-12, "network gradient")
				assertNotTrivial(t, g)
			}
		})
	}
}
