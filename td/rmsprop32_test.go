package td

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RMSProp32 takes RMSProp's steps, head step size and defaults included, to
// float32 rounding; Remap keeps entries and starts new ones at v = 1; and
// UpdateFold is Update followed by the trace fold.
func TestRMSProp32FollowsRMSProp(t *testing.T) {
	l := Layout{Size: 40, HeadStart: 30, HeadEnd: 40, Features: 9}
	r64, r32 := &RMSProp{StepSize: 1e-2}, &RMSProp32{StepSize: 1e-2}
	r64.Reset(l)
	r32.Reset(l)
	rng := rand.New(rand.NewPCG(1, 2))
	th64, th32 := make([]float64, l.Size), make([]float32, l.Size)
	u64, u32 := make([]float64, l.Size), make([]float32, l.Size)
	for step := range 50 {
		for i := range u64 {
			u32[i] = float32(rng.NormFloat64())
			u64[i] = float64(u32[i])
		}
		s := 0.5 - rng.Float64()
		r64.Update(th64, u64, s)
		r32.Update(th32, u32, s)
		for i := range th64 {
			require.InDelta(t, th64[i], float64(th32[i]), 1e-6*max(1e-2, math.Abs(th64[i])), "step %d entry %d", step, i)
		}
	}
	// The head (entries 30..39) stepped with α/F: its steps are about a ninth of the body's.
	assert.Less(t, math.Abs(float64(th32[35])), math.Abs(float64(th32[5]))+1e-2)

	old2, old39 := r32.v[2], r32.v[39]
	require.NotEqual(t, float32(1), old2, "v has moved")
	r32.Remap(Layout{Size: 3, HeadStart: 1, HeadEnd: 3, Features: 1}, []int{2, -1, 39})
	assert.Equal(t, []float32{old2, 1, old39}, r32.v)

	// UpdateFold is Update, then z ← d·z + g.
	l2 := Layout{Size: 20, HeadStart: 17, HeadEnd: 20, Features: 2}
	a, b := &RMSProp32{StepSize: 1e-2}, &RMSProp32{StepSize: 1e-2}
	a.Reset(l2)
	b.Reset(l2)
	tha, thb := make([]float32, 20), make([]float32, 20)
	za, zb, g := make([]float32, 20), make([]float32, 20), make([]float32, 20)
	for i := range za {
		za[i] = float32(rng.NormFloat64())
		zb[i] = za[i]
		g[i] = float32(rng.NormFloat64())
	}
	a.UpdateFold(tha, za, 0.3, 0.9, g)
	b.Update(thb, zb, 0.3)
	for i := range zb {
		zb[i] = 0.9*zb[i] + g[i]
	}
	for i := range tha {
		assert.InDelta(t, thb[i], tha[i], 1e-9, "θ %d", i)
		assert.InDelta(t, zb[i], za[i], 1e-6*max(1, math.Abs(float64(zb[i]))), "z %d", i)
	}
	assert.Panics(t, func() { a.Update(tha[:3], za, 1) })
	assert.Zero(t, testing.AllocsPerRun(100, func() { a.UpdateFold(tha, za, 0.3, 0.9, g) }))
}
