package forward

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// TestDriftFreezes drives the AutoFreeze test with parameter paths whose
// answer is known: a straight drift (c = 1), fluctuations about a fixed point
// (c → −1/2), a drift that stops, and parameters that never move (c = 0).
func TestDriftFreezes(t *testing.T) {
	const P = 50
	a := AutoFreeze{Min: 20, Max: 200, Window: 5, Threshold: 0, Decay: 0.5}
	rng := rand.New(rand.NewPCG(1, 2))
	noise := func(theta []float64) {
		for i := range theta {
			theta[i] = rng.NormFloat64() // about 0, independent across windows
		}
	}
	shift := func(theta []float64) {
		for i := range theta {
			theta[i] += 0.01
		}
	}
	tests := []struct {
		name string
		a    AutoFreeze
		move func(n int, theta []float64)
		want int // the step before which the stage freezes
	}{
		{"drift never converges: freezes at Max", a, func(_ int, th []float64) { shift(th) }, 200},
		{"fluctuation converges: freezes at Min", a, func(_ int, th []float64) { noise(th) }, 20},
		// Drift until step 60, then fluctuation: the cosines turn negative
		// from the measurement at 70 on, and the mean (β = 0.5) crosses 0
		// a few windows later, depending on the draws: after 60, well
		// before Max.
		{"drift then fluctuation", a, func(n int, th []float64) {
			if n < 60 {
				shift(th)
			} else {
				noise(th)
			}
		}, -1},
		{"no movement: c = 0, not below τ = 0", a, func(int, []float64) {}, 200},
		{"no movement, τ = 0.1: freezes at Min", AutoFreeze{Min: 20, Max: 200, Window: 5, Threshold: 0.1}, func(int, []float64) {}, 20},
		{"Min not a multiple of Window", AutoFreeze{Min: 23, Max: 200, Window: 5, Decay: 0.5}, func(_ int, th []float64) { noise(th) }, 23},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			theta := make([]float64, P)
			var d drift
			driftStart(&d, theta, tt.a.Window)
			got := -2
			for n := 0; n <= tt.a.Max; n++ {
				if freezeDue(&d, tt.a, n, theta) {
					got = n
					break
				}
				tt.move(n, theta) // the optimizer's update after step n
			}
			if tt.want >= 0 {
				assert.Equal(t, tt.want, got)
				return
			}
			assert.Greater(t, got, 60)
			assert.Less(t, got, 100)
		})
	}
}

// TestDriftCosines checks the measurements against cosines computed here.
func TestDriftCosines(t *testing.T) {
	var d drift
	theta := []float64{0, 0}
	driftStart(&d, theta, 1)
	path := [][]float64{{1, 0}, {2, 1}, {2, 0}} // D = (1,0), (1,1), (0,−1)
	for _, p := range path {
		measure(&d, p, 0.5)
	}
	// c_2 = 1/√2, c_3 = −1/√2; ρ_3 = (0.5·c_2 + c_3)/(0.5 + 1).
	rho, ok := d.mean()
	require.True(t, ok)
	c2, c3 := 1/1.4142135623730951, -1/1.4142135623730951
	assert.InDelta(t, (0.5*c2+c3)/1.5, rho, 1e-15)
}

// TestNetworkAutoFreeze runs a network whose parameters the test moves
// between steps: they drift for the first 30 steps of every stage, then
// fluctuate; each stage must freeze after its drift has stopped, at a
// multiple of the window, and StageEnds must record where.
func TestNetworkAutoFreeze(t *testing.T) {
	a := AutoFreeze{Min: 10, Max: 100, Window: 5, Decay: 0.5}
	n := NewNetwork(NetworkConfig{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 6, AutoFreeze: a, Seed: 3})
	rng := rand.New(rand.NewPCG(5, 6))
	x := []float64{0.3, -0.2, 0.5}
	stage, begin := 0, 0
	var ends []int
	for step := range 400 {
		n.Step(x)
		if n.Stage() != stage {
			stage, begin = n.Stage(), step
			ends = append(ends, step)
		}
		p := n.Params()[:n.Topology().OffHead()]
		for i := range p {
			if step-begin < 30 {
				p[i] += 0.01
			} else {
				p[i] = 0.1 * rng.NormFloat64()
			}
		}
	}
	require.Len(t, ends, 2, "three stages, two freezes")
	assert.Equal(t, ends, n.StageEnds())
	prev := 0
	for _, e := range ends {
		length := e - prev
		assert.Greater(t, length, 30, "not while drifting")
		assert.Less(t, length, 100, "before Max")
		assert.Zero(t, length%a.Window, "at a measurement")
		prev = e
	}
	_, ok := n.Drift()
	assert.False(t, ok, "the last stage is not tested")
	assert.Equal(t, []int{2, 2, 2}, n.Topology().Stages)
}

func TestNetworkAutoFreezeConfig(t *testing.T) {
	a := AutoFreeze{Min: 10, Max: 100, Window: 5}
	assert.PanicsWithValue(t, "forward: StepsPerStage 7 with AutoFreeze, want 0", func() {
		NewNetwork(NetworkConfig{Inputs: 1, FeaturesPerStage: 1, MaxFeatures: 2, StepsPerStage: 7, AutoFreeze: a})
	})
	bad := []AutoFreeze{{Min: 0, Max: 5, Window: 1}, {Min: 6, Max: 5, Window: 1}, {Min: 1, Max: 5}, {Min: 1, Max: 5, Window: 1, Threshold: 2},
		{Min: 1, Max: 5, Window: 1, Decay: 1}}
	for _, b := range bad {
		assert.Panics(t, func() { NewNetwork(NetworkConfig{Inputs: 1, FeaturesPerStage: 1, AutoFreeze: b}) }, "%+v", b)
	}
}

// TestNetworkAutoFreezeAllocs: a step with the AutoFreeze test, measuring
// windows included (Window 1), allocates nothing.
func TestNetworkAutoFreezeAllocs(t *testing.T) {
	n := NewNetwork(NetworkConfig{Inputs: 12, FeaturesPerStage: 4, MaxFeatures: 16,
		Norm: arch.Normalization{Enabled: true}, AutoFreeze: AutoFreeze{Min: 1 << 30, Max: 1 << 30, Window: 1}})
	x := make([]float64, 12)
	dst := make([]float64, n.NumParams())
	rng := rand.New(rand.NewPCG(1, 1))
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		n.Params()[0] += rng.NormFloat64()
		n.Step(x)
		n.Grad(dst)
	}))
}

// BenchmarkAutoFreeze is one Step and Grad of a CCN at stage 2 of 4 (12
// features, 4 per stage, 12 inputs) with a fixed schedule and with the
// AutoFreeze test measuring every K steps (the stage never freezes).
func BenchmarkAutoFreeze(b *testing.B) {
	const never = 1 << 40
	for _, bc := range []struct {
		name string
		cfg  NetworkConfig
	}{
		{"fixed", NetworkConfig{MaxFeatures: 16, StepsPerStage: never}},
		{"auto/K=2500", NetworkConfig{MaxFeatures: 16, AutoFreeze: AutoFreeze{Min: never, Max: never, Window: 2500}}},
		{"auto/K=1", NetworkConfig{MaxFeatures: 16, AutoFreeze: AutoFreeze{Min: never, Max: never, Window: 1}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			n := NewNetworkAt(arch.CCN(12, 4, 2, arch.Normalization{Enabled: true}), bc.cfg)
			fillUniform(rand.New(rand.NewPCG(3, 4)), n.Params(), 0.3)
			xs := benchInputs(12)
			dst := make([]float64, n.NumParams())
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				n.Params()[i%n.NumParams()] += 1e-9
				n.Step(xs[i&63])
				n.Grad(dst)
			}
		})
	}
}
