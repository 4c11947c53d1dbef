package forward

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// Unbiasedness is checked statistically in package compare (CheckUORO);
// these are the engine's own contracts.

// runUORO returns the predictions and final gradient of u on xs.
func runUORO(u *UORO, xs [][]float64) ([]float64, []float64) {
	ys := make([]float64, len(xs))
	for t, x := range xs {
		ys[t] = u.Step(x)
	}
	g := make([]float64, u.NumParams())
	u.Grad(g)
	return ys, g
}

func TestUORODeterministicPerSeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	shape := arch.Dense{Hidden: 3, Inputs: 2, OutBias: true}
	params := make([]float64, shape.NumParams())
	fillUniform(rng, params, 1)
	xs := randomInputs(rng, 15, 2)
	a, b, c := NewUORO(shape, 1), NewUORO(shape, 1), NewUORO(shape, 2)
	for _, u := range []*UORO{a, b, c} {
		copy(u.Params(), params)
	}
	ya, ga := runUORO(a, xs)
	yb, gb := runUORO(b, xs)
	yc, gc := runUORO(c, xs)
	assert.Equal(t, ya, yb)
	assert.Equal(t, ga, gb, "one seed, one estimate")
	assert.Equal(t, ya, yc, "the forward pass does not depend on the seed")
	assert.NotEqual(t, ga, gc, "another seed, another estimate")
	// Reset keeps the generator's position: the next run is another draw.
	a.Reset()
	ya2, ga2 := runUORO(a, xs)
	assert.Equal(t, ya, ya2)
	assert.NotEqual(t, ga, ga2)
}

// The forward pass and the head gradients are DenseRTRL's.
func TestUOROForwardIsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	shape := arch.Dense{Hidden: 3, Inputs: 4, OutBias: true}
	u, d := NewUORO(shape, 3), NewDenseRTRL(shape)
	fillUniform(rng, u.Params(), 1)
	copy(d.Params(), u.Params())
	gu, gd := make([]float64, shape.NumParams()), make([]float64, shape.NumParams())
	for _, x := range randomInputs(rng, 20, 4) {
		assert.Equal(t, d.Step(x), u.Step(x))
		u.Grad(gu)
		d.Grad(gd)
		assert.Equal(t, gd[shape.OffOut():], gu[shape.OffOut():])
	}
}

func TestUOROPanics(t *testing.T) {
	u := NewUORO(arch.Dense{Hidden: 2, Inputs: 3}, 1)
	assert.PanicsWithValue(t, "forward: dense input has length 1, want 3", func() { u.Step(make([]float64, 1)) })
	assert.PanicsWithValue(t, "forward: dense gradient has length 1, want 50", func() { u.Grad(make([]float64, 1)) })
	assert.Panics(t, func() { NewUORO(arch.Dense{Hidden: 0, Inputs: 3}, 1) })
}

func TestUOROAllocs(t *testing.T) {
	u := NewUORO(arch.Dense{Hidden: 4, Inputs: 12, OutBias: true}, 1)
	fillUniform(rand.New(rand.NewPCG(1, 1)), u.Params(), 0.5)
	x := make([]float64, 12)
	dst := make([]float64, u.NumParams())
	require.Zero(t, testing.AllocsPerRun(50, func() {
		u.Step(x)
		u.Grad(dst)
	}))
}

func TestUOROOps(t *testing.T) {
	// H = 2, m = 3: P = 48; forward 80 + 20, coefficients 30, prediction 5,
	// (∂F/∂s)·s̃ 32 + 28, νᵀ·∂F/∂θ 12 + 40 and norms 192, scalings 8,
	// updates 12 + 144, Grad 4 + 48.
	u := NewUORO(arch.Dense{Hidden: 2, Inputs: 3, OutBias: true}, 1)
	assert.Equal(t, 80+20+30+5+32+28+12+40+192+8+12+144+4+48, u.OpsPerStep())
	shape := arch.Dense{Hidden: 4, Inputs: 12, OutBias: true}
	assert.Less(t, 5*NewUORO(shape, 1).OpsPerStep(), NewDenseRTRL(shape).OpsPerStep())
}
