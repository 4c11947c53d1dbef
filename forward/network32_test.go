package forward

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// The float32 network starts from the float64 network's parameters rounded
// to float32 and follows its predictions and gradients closely (here
// without learning; compare.CheckFloat32Network holds the two to a stated
// tolerance while both learn), through stage changes, at a small input size
// (the scalar float32 trace kernels) and at 275 (the lane kernels).
func TestNetwork32FollowsNetwork(t *testing.T) {
	for _, m := range []int{5, 275} {
		cfg := NetworkConfig{Inputs: m, FeaturesPerStage: 2, MaxFeatures: 6, StepsPerStage: 10,
			Norm: arch.Normalization{Enabled: true}, Seed: 7, InitScale: 0.5}
		n64, n32 := NewNetworkOf[float64](cfg), NewNetworkOf[float32](cfg)
		for i, p := range n64.Params() {
			require.Equal(t, float32(p), n32.Params()[i], "parameters are the float64 ones rounded")
		}
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float64, m)
		for step := range 35 {
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			y64, y32 := n64.Step(x), n32.Step(x)
			assert.InDelta(t, y64, y32, 1e-5*max(1, math.Abs(y64)), "m %d step %d", m, step)
			g64, g32 := make([]float64, n64.NumParams()), make([]float32, n32.NumParams())
			n64.Grad(g64)
			n32.Grad(g32)
			scale := 1.0
			for _, g := range g64 {
				scale = max(scale, math.Abs(g))
			}
			for i := range g64 {
				require.InDelta(t, g64[i], float64(g32[i]), 1e-5*scale, "m %d step %d entry %d", m, step, i)
			}
		}
		assert.Equal(t, 2, n32.Stage(), "m %d: the test crossed stage changes", m)
		assert.Equal(t, n64.StageEnds(), n32.StageEnds())
	}
}

// AccumulateGrad of the float32 network is Grad followed by z ← decay·z + g
// to float32 rounding (the fold's fused operation rounds once where the
// two-step form rounds twice).
func TestNetwork32AccumulateGrad(t *testing.T) {
	n := NewNetworkOf[float32](NetworkConfig{Inputs: 9, FeaturesPerStage: 2, MaxFeatures: 6, StepsPerStage: 7,
		Norm: arch.Normalization{Enabled: true, Decay: 0.9}, Seed: 3})
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 9)
	var z, want, g []float32
	for step := 0; step < 30; step++ {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		n.Step(x)
		if len(z) != n.NumParams() {
			z, want, g = make([]float32, n.NumParams()), make([]float32, n.NumParams()), make([]float32, n.NumParams())
		}
		n.Grad(g)
		for i := range want {
			want[i] = 0.9*want[i] + g[i]
		}
		n.AccumulateGrad(z, 0.9)
		for i := range z {
			require.InDelta(t, want[i], z[i], 1e-5*max(1, math.Abs(float64(want[i]))), "step %d entry %d", step, i)
		}
	}
	assert.Equal(t, 2, n.Stage())
}

// A step of the float32 network allocates nothing, with the scalar and the
// lane trace kernels (small and 275 inputs), Grad or AccumulateGrad.
func TestNetwork32Allocs(t *testing.T) {
	for _, m := range []int{5, 275} {
		n := NewNetworkAtOf[float32](arch.CCN(m, 4, 2, arch.Normalization{Enabled: true}), NetworkConfig{NormalizeInputs: true})
		x := make([]float64, m)
		g := make([]float32, n.NumParams())
		assert.Zero(t, testing.AllocsPerRun(50, func() {
			n.Step(x)
			n.Grad(g)
		}), "m %d Grad", m)
		assert.Zero(t, testing.AllocsPerRun(50, func() {
			n.Step(x)
			n.AccumulateGrad(g, 0.9)
		}), "m %d AccumulateGrad", m)
	}
}
