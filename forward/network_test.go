package forward

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floorNorm makes the ε floor bind: with β = 0.5 the variance follows the
// recent spread of a feature, which often falls below ε² = 0.09.
var floorNorm = arch.Normalization{Enabled: true, Decay: 0.5, Epsilon: 0.3}

func randomizeNetwork(rng *rand.Rand, n *Network) {
	fillUniform(rng, n.Frozen(), 1)
	fillUniform(rng, n.Params(), 1)
}

func TestNetworkMatchesFiniteDifferences(t *testing.T) {
	tests := []struct {
		name string
		top  arch.Network
		T    int
	}{
		{"columnar 3", arch.Columnar(4, 3, arch.Normalization{}), 15},
		{"columnar 3 normalized", arch.Columnar(4, 3, floorNorm), 15},
		{"ccn stage 0 normalized", arch.CCN(3, 2, 0, floorNorm), 15},
		{"ccn stage 2", arch.CCN(3, 2, 2, arch.Normalization{}), 15},
		{"ccn stage 2 normalized", arch.CCN(3, 2, 2, floorNorm), 20},
		{"constructive stage 2 normalized", arch.CCN(4, 1, 2, floorNorm), 20},
		{"paper decay", arch.CCN(3, 2, 1, arch.Normalization{Enabled: true}), 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.T), uint64(tt.top.Features())))
			n := NewNetworkAt(tt.top, NetworkConfig{})
			require.Equal(t, tt.top.NumLearnable(), n.NumParams())
			require.Equal(t, tt.top.NumFrozen(), len(n.Frozen()))
			randomizeNetwork(rng, n)
			xs := randomInputs(rng, tt.T, tt.top.Inputs)
			ref := refNet{
				top:    tt.top,
				frozen: append([]float64(nil), n.Frozen()...),
				learn:  append([]float64(nil), n.Params()...),
				birth:  make([]int, tt.top.NumStages()),
			}
			want, stats := ref.run(xs, nil)
			for step, x := range xs {
				assert.InDelta(t, want[step], n.Step(x), 1e-12, "step %d", step)
			}
			if tt.top.Norm == floorNorm {
				assert.True(t, floorBinds(stats, floorNorm.Epsilon), "ε floor never active")
			}
			got := make([]float64, n.NumParams())
			n.Grad(got)
			fd := centralDiff(ref.learn, func() float64 {
				ys, _ := ref.run(xs, stats)
				return ys[len(ys)-1]
			})
			assert.InDeltaSlice(t, fd, got, 1e-7)
		})
	}
}

func floorBinds(stats [][]refStat, eps float64) bool {
	for _, row := range stats {
		for _, st := range row {
			if st.scale == 1/eps {
				return true
			}
		}
	}
	return false
}

// TestNetworkStagedMatchesFiniteDifferences grows a CCN through AdvanceStage
// and checks predictions at every step and the final gradient against a
// reference in which each stage starts at its own step.
func TestNetworkStagedMatchesFiniteDifferences(t *testing.T) {
	for _, norm := range []arch.Normalization{{}, floorNorm} {
		t.Run(map[bool]string{false: "plain", true: "normalized"}[norm.Enabled], func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, 12))
			n := NewNetwork(NetworkConfig{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 5, Norm: norm, Seed: 1})
			randomizeNetwork(rng, n)
			birth := []int{0, 7, 13}
			xs := randomInputs(rng, 22, 3)
			var ys []float64
			for step, x := range xs {
				if step == birth[1] || step == birth[2] {
					F := n.Features()
					n.AdvanceStage()
					top := n.Topology()
					fillUniform(rng, n.Params()[:top.OffHead()], 1)
					fillUniform(rng, n.Params()[top.OffHead()+F:top.OffHeadBias()], 1)
				}
				ys = append(ys, n.Step(x))
			}
			top := n.Topology()
			require.Equal(t, []int{2, 2, 1}, top.Stages)
			require.Equal(t, 2, n.Stage())
			ref := refNet{
				top:    top,
				frozen: append([]float64(nil), n.Frozen()...),
				learn:  append([]float64(nil), n.Params()...),
				birth:  birth,
			}
			want, stats := ref.run(xs, nil)
			assert.InDeltaSlice(t, want, ys, 1e-12)
			got := make([]float64, n.NumParams())
			n.Grad(got)
			fd := centralDiff(ref.learn, func() float64 {
				ys, _ := ref.run(xs, stats)
				return ys[len(ys)-1]
			})
			assert.InDeltaSlice(t, fd, got, 1e-7)
		})
	}
}

func TestNetworkDefectsAreDetected(t *testing.T) {
	top := arch.CCN(3, 2, 1, floorNorm)
	tests := []struct {
		defect       Defect
		forwardWrong bool
	}{
		{PreviousStepFeatures, true},
		{DropRecurrentTerm, false},
	}
	for _, tt := range tests {
		t.Run(tt.defect.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(13, 14))
			n := NewNetworkAt(top, NetworkConfig{})
			n.Defect = tt.defect
			randomizeNetwork(rng, n)
			xs := randomInputs(rng, 12, 3)
			ref := refNet{top: top, frozen: append([]float64(nil), n.Frozen()...),
				learn: append([]float64(nil), n.Params()...), birth: []int{0, 0}}
			want, stats := ref.run(xs, nil)
			forwardErr := 0.0
			for step, x := range xs {
				forwardErr = max(forwardErr, abs(n.Step(x)-want[step]))
			}
			if tt.forwardWrong {
				assert.Greater(t, forwardErr, 1e-3)
			} else {
				assert.Less(t, forwardErr, 1e-12)
			}
			got := make([]float64, n.NumParams())
			n.Grad(got)
			fd := centralDiff(ref.learn, func() float64 {
				ys, _ := ref.run(xs, stats)
				return ys[len(ys)-1]
			})
			gradErr := 0.0
			for p := range fd {
				gradErr = max(gradErr, abs(fd[p]-got[p]))
			}
			assert.Greater(t, gradErr, 1e-3)
		})
	}
}

func TestColumnarNetworkIsIndependentColumns(t *testing.T) {
	const m, d = 4, 3
	rng := rand.New(rand.NewPCG(15, 16))
	n := NewNetwork(NetworkConfig{Inputs: m, FeaturesPerStage: d, Seed: 2})
	randomizeNetwork(rng, n)
	top := n.Topology()
	require.Equal(t, arch.Columnar(m, d, arch.Normalization{}), top)
	cols := make([]*Column, d)
	for j := range cols {
		cols[j] = NewColumn(m)
		copy(cols[j].Params(), n.Params()[top.OffLearn(j):top.OffLearn(j+1)])
	}
	w, b := n.Params()[top.OffHead():top.OffHeadBias()], n.Params()[top.OffHeadBias()]
	got := make([]float64, n.NumParams())
	for _, x := range randomInputs(rng, 20, m) {
		want := b
		for j, c := range cols {
			want += w[j] * c.Step(x)
		}
		assert.InDelta(t, want, n.Step(x), 1e-14)
	}
	n.Grad(got)
	for j, c := range cols {
		for p, tr := range c.Trace() {
			assert.Equal(t, w[j]*tr, got[top.OffLearn(j)+p])
		}
		assert.Equal(t, c.H(), got[top.OffHead()+j])
	}
	assert.Equal(t, 1.0, got[top.OffHeadBias()])
}

func TestNetworkAdvanceStage(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	cfg := NetworkConfig{Inputs: 3, FeaturesPerStage: 4, MaxFeatures: 6, Norm: floorNorm, Seed: 3}
	a, b := NewNetwork(cfg), NewNetwork(cfg)
	assert.Equal(t, a.Params(), b.Params(), "same seed, same initialization")
	fillUniform(rng, a.Params(), 1)
	copy(b.Params(), a.Params())
	xs := randomInputs(rng, 8, 3)
	for _, x := range xs[:5] {
		a.Step(x)
		b.Step(x)
	}
	oldLearn := append([]float64(nil), a.Params()...)
	oldTop := a.Topology()
	a.AdvanceStage()
	top := a.Topology()
	assert.Equal(t, []int{4, 2}, top.Stages, "the last stage is cut at MaxFeatures")
	assert.Equal(t, 1, a.Stage())
	assert.Equal(t, 0, a.StepsInStage())
	assert.Equal(t, oldLearn[:oldTop.OffHead()], a.Frozen(), "learning columns become frozen")
	assert.Equal(t, oldLearn[oldTop.OffHead():oldTop.OffHeadBias()], a.Params()[top.OffHead():top.OffHead()+4])
	assert.Equal(t, []float64{0, 0}, a.Params()[top.OffHead()+4:top.OffHeadBias()], "new head weights start at 0")
	assert.Equal(t, oldLearn[oldTop.OffHeadBias()], a.Params()[top.OffHeadBias()])
	for _, v := range a.Params()[:top.OffHead()] {
		assert.LessOrEqual(t, math.Abs(v), DefaultInitScale)
		assert.NotZero(t, v)
	}
	// Old features keep their state and statistics: with the new head weights
	// at 0 the prediction is unchanged.
	for _, x := range xs[5:] {
		assert.InDelta(t, b.Step(x), a.Step(x), 1e-15)
		assert.Equal(t, b.NormalizedFeatures(), a.NormalizedFeatures()[:4])
	}
	assert.PanicsWithValue(t, "forward: network already has MaxFeatures = 6 features", a.AdvanceStage)
}

func TestNetworkAutoAdvance(t *testing.T) {
	n := NewNetwork(NetworkConfig{Inputs: 2, FeaturesPerStage: 1, MaxFeatures: 3, StepsPerStage: 3})
	x := []float64{0.5, -0.5}
	var stages []int
	for range 12 {
		n.Step(x)
		stages = append(stages, n.Stage())
	}
	assert.Equal(t, []int{0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2}, stages)
	assert.Equal(t, []int{1, 1, 1}, n.Topology().Stages)
	assert.Len(t, n.Params(), n.Topology().NumLearnable())
}

func TestNetworkReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	n := NewNetworkAt(arch.CCN(3, 2, 1, floorNorm), NetworkConfig{})
	randomizeNetwork(rng, n)
	params := append([]float64(nil), n.Params()...)
	xs := randomInputs(rng, 6, 3)
	run := func() ([]float64, []float64) {
		var ys []float64
		for _, x := range xs {
			ys = append(ys, n.Step(x))
		}
		g := make([]float64, n.NumParams())
		n.Grad(g)
		return ys, g
	}
	ys1, g1 := run()
	n.Reset()
	ys2, g2 := run()
	assert.Equal(t, ys1, ys2)
	assert.Equal(t, g1, g2)
	assert.Equal(t, params, n.Params())
}

func TestNetworkNormalizeInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	top := arch.CCN(3, 2, 1, floorNorm)
	a := NewNetworkAt(top, NetworkConfig{NormalizeInputs: true})
	b := NewNetworkAt(top, NetworkConfig{})
	randomizeNetwork(rng, a)
	copy(b.Frozen(), a.Frozen())
	copy(b.Params(), a.Params())
	mean, variance := make([]float64, 3), []float64{1, 1, 1}
	ga, gb := make([]float64, a.NumParams()), make([]float64, b.NumParams())
	for _, x := range randomInputs(rng, 10, 3) {
		xn := make([]float64, 3)
		for k, v := range x {
			mu := 0.5*mean[k] + 0.5*v
			variance[k] = 0.5*variance[k] + 0.5*(mu-v)*(mean[k]-v)
			mean[k] = mu
			xn[k] = (v - mu) / math.Max(0.3, math.Sqrt(variance[k]))
		}
		assert.InDelta(t, b.Step(xn), a.Step(x), 1e-13)
	}
	a.Grad(ga)
	b.Grad(gb)
	assert.InDeltaSlice(t, gb, ga, 1e-13)
}

func TestNetworkConfigPanics(t *testing.T) {
	tests := []struct {
		cfg  NetworkConfig
		want string
	}{
		{NetworkConfig{Inputs: 0, FeaturesPerStage: 1}, "forward: network needs at least one input, got 0"},
		{NetworkConfig{Inputs: 2}, "forward: FeaturesPerStage 0, want ≥ 1"},
		{NetworkConfig{Inputs: 2, FeaturesPerStage: 1, StepsPerStage: -1}, "forward: StepsPerStage -1, want ≥ 0"},
		{NetworkConfig{Inputs: 2, FeaturesPerStage: 1, InitScale: -1}, "forward: InitScale -1, want ≥ 0"},
		{NetworkConfig{Inputs: 2, FeaturesPerStage: 1, Norm: arch.Normalization{Enabled: true, Decay: 1.5}}, "forward: normalization decay 1.5 outside (0, 1)"},
		{NetworkConfig{Inputs: 2, FeaturesPerStage: 1, Norm: arch.Normalization{Enabled: true, Epsilon: -1}}, "forward: normalization epsilon -1 not positive"},
	}
	for _, tt := range tests {
		assert.PanicsWithValue(t, tt.want, func() { NewNetwork(tt.cfg) })
	}
	n := NewNetwork(NetworkConfig{Inputs: 2, FeaturesPerStage: 1})
	assert.PanicsWithValue(t, "forward: network input has length 3, want 2", func() { n.Step(make([]float64, 3)) })
	assert.PanicsWithValue(t, "forward: network gradient has length 1, want 18", func() { n.Grad(make([]float64, 1)) })
}

func TestNetworkSeeds(t *testing.T) {
	a := NewNetwork(NetworkConfig{Inputs: 2, FeaturesPerStage: 2, Seed: 1})
	b := NewNetwork(NetworkConfig{Inputs: 2, FeaturesPerStage: 2, Seed: 2})
	assert.NotEqual(t, a.Params(), b.Params())
}

func TestNetworkAllocs(t *testing.T) {
	for _, defect := range []Defect{NoDefect, PreviousStepFeatures, DropRecurrentTerm} {
		n := NewNetworkAt(arch.CCN(12, 4, 3, arch.Normalization{Enabled: true}), NetworkConfig{NormalizeInputs: true})
		n.Defect = defect
		x := make([]float64, 12)
		dst := make([]float64, n.NumParams())
		assert.Zero(t, testing.AllocsPerRun(50, func() {
			n.Step(x)
			n.Grad(dst)
		}), defect.String())
	}
}

func TestNetworkFrozenTracesAllocs(t *testing.T) {
	n := NewNetworkAt(arch.CCN(12, 4, 3, arch.Normalization{Enabled: true}), NetworkConfig{FrozenTraces: true})
	x := make([]float64, 12)
	dst, fdst := make([]float64, n.NumParams()), make([]float64, len(n.Frozen()))
	assert.Zero(t, testing.AllocsPerRun(50, func() {
		n.Step(x)
		n.Grad(dst)
		n.FrozenGrad(fdst)
	}))
}

func TestNetworkOps(t *testing.T) {
	const m, d = 12, 10
	plain := NewNetwork(NetworkConfig{Inputs: m, FeaturesPerStage: d})
	col := NewColumn(m)
	assert.Equal(t, d*(col.OpsPerStep()+arch.ColumnParams(m)+1+2), plain.OpsPerStep())
	normed := NewNetwork(NetworkConfig{Inputs: m, FeaturesPerStage: d, Norm: arch.Normalization{Enabled: true}})
	assert.Equal(t, plain.OpsPerStep()+12*d, normed.OpsPerStep())
	// A CCN at stage 1 adds the frozen forward passes of stage 0.
	ccn := NewNetworkAt(arch.CCN(m, 4, 1, arch.Normalization{}), NetworkConfig{})
	learning := NewColumn(m + 4)
	want := 4*col.FrozenOpsPerStep() + 4*(learning.OpsPerStep()+arch.ColumnParams(m+4)+1) + 2*8
	assert.Equal(t, want, ccn.OpsPerStep())
	// With FrozenTraces a frozen column costs a learning one, its share of
	// FrozenGrad and its coefficient: 44·m + 108.
	traced := NewNetworkAt(arch.CCN(m, 4, 1, arch.Normalization{}), NetworkConfig{FrozenTraces: true})
	assert.Equal(t, want+4*(44*m+108-col.FrozenOpsPerStep()), traced.OpsPerStep())
	assert.Equal(t, 44*m+108, col.OpsPerStep()+arch.ColumnParams(m)+1)
}

// AccumulateGrad is Grad followed by z ← decay·z + g, bitwise, and ignores
// parameter changes made after Step.
func TestNetworkAccumulateGrad(t *testing.T) {
	n := NewNetwork(NetworkConfig{Inputs: 5, FeaturesPerStage: 2, MaxFeatures: 6, StepsPerStage: 7,
		Norm: arch.Normalization{Enabled: true, Decay: 0.9}, Seed: 3})
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 5)
	var z, want, g []float64
	for step := 0; step < 30; step++ {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		n.Step(x)
		if len(z) != n.NumParams() { // a new stage: start the trace afresh
			z = make([]float64, n.NumParams())
			want = make([]float64, n.NumParams())
			g = make([]float64, n.NumParams())
		}
		p := n.Params()
		for i := range p {
			p[i] += 0.01 * rng.NormFloat64() // an optimizer step between Step and the fold
		}
		n.Grad(g)
		for i := range want {
			want[i] = 0.9*want[i] + g[i]
		}
		n.AccumulateGrad(z, 0.9)
		require.Equal(t, want, z, "step %d", step)
	}
	assert.Equal(t, 2, n.Stage(), "the test crossed stage changes")
	assert.Zero(t, testing.AllocsPerRun(100, func() { n.AccumulateGrad(z, 0.9) }))
	assert.Panics(t, func() { n.AccumulateGrad(make([]float64, 3), 0.9) })
}

// The trace update a Step leaves pending (done by the next gradient or
// Step) gives the same bits whatever is called after the Step: Grad once or
// twice, AccumulateGrad before Grad, or several Steps before one Grad, across
// stage changes.
func TestNetworkPendingTracesOrder(t *testing.T) {
	cfg := NetworkConfig{Inputs: 4, FeaturesPerStage: 5, MaxFeatures: 15, StepsPerStage: 9,
		Norm: arch.Normalization{Enabled: true, Decay: 0.9}, Seed: 5}
	a, b, c := NewNetwork(cfg), NewNetwork(cfg), NewNetwork(cfg)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 4)
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, f := range v {
			out[i] = math.Float64bits(f)
		}
		return out
	}
	var za, zb []float64
	for step := 0; step < 40; step++ {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		a.Step(x)
		b.Step(x)
		c.Step(x)
		if len(za) != a.NumParams() { // a new stage: random head weights (0 at first), the same in all three
			za, zb = make([]float64, a.NumParams()), make([]float64, a.NumParams())
			for i := range a.Params() {
				p := rng.NormFloat64()
				a.Params()[i], b.Params()[i], c.Params()[i] = p, p, p
			}
		}
		g1, g2, gb := make([]float64, a.NumParams()), make([]float64, a.NumParams()), make([]float64, a.NumParams())
		a.Grad(g1)
		a.Grad(g2)
		require.Equal(t, bits(g1), bits(g2), "step %d: Grad twice", step)
		for i := range za {
			za[i] = 0.9*za[i] + g1[i]
		}
		b.AccumulateGrad(zb, 0.9)
		b.Grad(gb)
		require.Equal(t, bits(g1), bits(gb), "step %d: Grad after AccumulateGrad", step)
		require.Equal(t, bits(za), bits(zb), "step %d: AccumulateGrad first", step)
		if step%4 == 3 { // c takes its gradient every fourth step only
			gc := make([]float64, c.NumParams())
			c.Grad(gc)
			require.Equal(t, bits(g1), bits(gc), "step %d: Grad after Steps without one", step)
		}
	}
	assert.Equal(t, 2, a.Stage(), "the test crossed stage changes")
}

func TestNetworkFeatureScales(t *testing.T) {
	tests := []struct {
		name string
		top  arch.Network
	}{
		{"columnar 3 normalized, ε floor binding", arch.Columnar(4, 3, floorNorm)},
		{"ccn stage 2 normalized, paper decay", arch.CCN(3, 2, 2, arch.Normalization{Enabled: true})},
		{"columnar 2 without normalization", arch.Columnar(4, 2, arch.Normalization{})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(tt.top.Features())))
			n := NewNetworkAt(tt.top, NetworkConfig{})
			randomizeNetwork(rng, n)
			ref := refNet{top: tt.top, frozen: append([]float64(nil), n.Frozen()...),
				learn: append([]float64(nil), n.Params()...), birth: make([]int, tt.top.NumStages())}
			xs := randomInputs(rng, 20, tt.top.Inputs)
			_, stats := ref.run(xs, nil)
			for step, x := range xs {
				n.Step(x)
				got := n.FeatureScales()
				require.Len(t, got, tt.top.Features())
				for k, st := range stats[step] {
					assert.InDelta(t, st.scale, got[k], 1e-12*st.scale, "step %d feature %d", step, k)
				}
			}
			if tt.top.Norm == floorNorm {
				assert.True(t, floorBinds(stats, floorNorm.Epsilon), "ε floor never active")
			}
		})
	}
}

// TestFrozenTracesLeaveTheNetworkUnchanged: keeping the frozen columns'
// traces changes neither the predictions nor the learnable gradient, bit for
// bit, through stage changes and a Reset.
func TestFrozenTracesLeaveTheNetworkUnchanged(t *testing.T) {
	cfg := NetworkConfig{Inputs: 5, FeaturesPerStage: 2, MaxFeatures: 7, StepsPerStage: 40,
		Norm: arch.Normalization{Enabled: true, Decay: 0.99}, Seed: 3}
	plain := NewNetwork(cfg)
	cfg.FrozenTraces = true
	traced := NewNetwork(cfg)
	rng := rand.New(rand.NewPCG(9, 9))
	x := make([]float64, cfg.Inputs)
	g1, g2 := make([]float64, 0, 512), make([]float64, 0, 512)
	for step := range 200 {
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		if step == 150 {
			plain.Reset()
			traced.Reset()
		}
		y1, y2 := plain.Step(x), traced.Step(x)
		require.Equal(t, math.Float64bits(y1), math.Float64bits(y2), "step %d", step)
		g1, g2 = g1[:plain.NumParams()], g2[:traced.NumParams()]
		plain.Grad(g1)
		traced.Grad(g2)
		require.Equal(t, g1, g2, "step %d", step)
		// Move the head so that the features count and steps differ.
		for _, n := range []*Network{plain, traced} {
			top := n.Topology()
			for k := top.OffHead(); k <= top.OffHeadBias(); k++ {
				n.Params()[k] += 0.01
			}
		}
	}
	assert.Equal(t, 4, traced.Stage()+1, "the run crossed three stage changes")
	fg := make([]float64, len(traced.Frozen()))
	traced.FrozenGrad(fg)
	assert.NotZero(t, fg[0], "the frozen traces are kept")
	assert.Panics(t, func() { plain.FrozenGrad(make([]float64, len(plain.Frozen()))) })
}
