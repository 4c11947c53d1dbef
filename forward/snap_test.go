package forward

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// The exactness cases (H = 1, diagonal W_hh) and the agreement with the
// documented approximation are checked in package compare; these are the
// engine's own contracts.

func TestSnAp1Reset(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	s := NewSnAp1(arch.Dense{Hidden: 3, Inputs: 2, OutBias: true})
	fillUniform(rng, s.Params(), 1)
	xs := randomInputs(rng, 3, 2)
	first := s.Step(xs[0])
	g1 := make([]float64, s.NumParams())
	s.Grad(g1)
	s.Step(xs[1])
	s.Reset()
	assert.Equal(t, first, s.Step(xs[0]))
	g2 := make([]float64, s.NumParams())
	s.Grad(g2)
	assert.Equal(t, g1, g2)
}

// The forward pass is DenseRTRL's: same predictions and head gradients.
func TestSnAp1ForwardIsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	shape := arch.Dense{Hidden: 3, Inputs: 4, OutBias: true}
	s, d := NewSnAp1(shape), NewDenseRTRL(shape)
	fillUniform(rng, s.Params(), 1)
	copy(d.Params(), s.Params())
	gs, gd := make([]float64, shape.NumParams()), make([]float64, shape.NumParams())
	for _, x := range randomInputs(rng, 20, 4) {
		assert.Equal(t, d.Step(x), s.Step(x))
		s.Grad(gs)
		d.Grad(gd)
		assert.Equal(t, gd[shape.OffOut():], gs[shape.OffOut():])
	}
}

func TestSnAp1Panics(t *testing.T) {
	s := NewSnAp1(arch.Dense{Hidden: 2, Inputs: 3})
	assert.PanicsWithValue(t, "forward: dense input has length 1, want 3", func() { s.Step(make([]float64, 1)) })
	assert.PanicsWithValue(t, "forward: dense gradient has length 1, want 50", func() { s.Grad(make([]float64, 1)) })
	assert.Panics(t, func() { NewSnAp1(arch.Dense{Hidden: 0, Inputs: 3}) })
}

func TestSnAp1Allocs(t *testing.T) {
	s := NewSnAp1(arch.Dense{Hidden: 4, Inputs: 12, OutBias: true})
	fillUniform(rand.New(rand.NewPCG(1, 1)), s.Params(), 0.5)
	x := make([]float64, 12)
	dst := make([]float64, s.NumParams())
	require.Zero(t, testing.AllocsPerRun(50, func() {
		s.Step(x)
		s.Grad(dst)
	}))
}

func TestSnAp1Ops(t *testing.T) {
	// H = 2, m = 3: P = 4·2·6 = 48 cell parameters; forward 8·2·5 + 10·2,
	// coefficients 21·2, prediction 2·2 + 1, traces 10 and Grad 1 per parameter.
	s := NewSnAp1(arch.Dense{Hidden: 2, Inputs: 3, OutBias: true})
	assert.Equal(t, 80+20+42+5+48*11, s.OpsPerStep())
	// O(P) against RTRL's O(P·H²): at the runs' H = 4, m = 12 it is far cheaper.
	shape := arch.Dense{Hidden: 4, Inputs: 12, OutBias: true}
	assert.Less(t, 10*NewSnAp1(shape).OpsPerStep(), NewDenseRTRL(shape).OpsPerStep())
}
