package compare

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// frozenTops are the topologies of the frozen-traces checks: one frozen
// stage, several, single-column stages, with and without normalization.
var frozenTops = []arch.Network{
	{Inputs: 3, Stages: []int{2, 1}},
	{Inputs: 2, Stages: []int{1, 1, 1}, Norm: arch.Normalization{Enabled: true, Decay: 0.9}},
	{Inputs: 4, Stages: []int{2, 2, 2}, Norm: arch.Normalization{Enabled: true, Decay: 0.9}},
}

// TestFrozenTraces: FrozenGrad and Grad of a network that keeps its frozen
// columns' traces equal the cut reference gradient (each column along its
// own recurrence and head weight) at every check time and for a random
// combination, on Gaussian and binary inputs at every parameter scale; the
// frozen columns' recurrent term dropped makes every case fail.
func TestFrozenTraces(t *testing.T) {
	r := reference.New()
	for ti, top := range frozenTops {
		for i := range 3 {
			t.Run(fmt.Sprintf("stages=%v/norm=%t/%d", top.Stages, top.Norm.Enabled, i), func(t *testing.T) {
				check := func(d forward.Defect) Agreement {
					rng := newRand(41, 10*ti+i)
					a, err := CheckFrozenTraces(r, top, randomTrajectory(rng, i, 12, top.Inputs), rng, d)
					require.NoError(t, err)
					return a
				}
				good := check(forward.NoDefect)
				assert.True(t, good.Pass(), "max rel %.3g", good.MaxRel)
				bad := check(forward.DropFrozenRecurrentTerm)
				assert.False(t, bad.Pass(), "the frozen columns' recurrent term dropped passes: max rel %.3g", bad.MaxRel)
				t.Logf("correct %.2g, defective %.2g", good.MaxRel, bad.MaxRel)
			})
		}
	}
}

// TestFrozenTracesAcrossStage: a network that keeps its frozen columns'
// traces carries the traces of the learning columns it freezes. After
// AdvanceStage, FrozenGrad of the formerly learning columns equals the cut
// reference gradient over the whole trajectory at the final topology: with
// the cut, no later column reaches the gradient of an earlier one, and the
// new columns' head weights are 0, so the new stage changes neither y nor
// that gradient. Starting the frozen traces at zero at the stage change
// (DropFrozenTracesAtStage) fails it.
func TestFrozenTracesAcrossStage(t *testing.T) {
	r := reference.New()
	norm := arch.Normalization{Enabled: true, Decay: 0.9}
	const before, after = 7, 5
	check := func(d forward.Defect) Agreement {
		rng := newRand(43, 0)
		net := forward.NewNetwork(forward.NetworkConfig{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 4, Norm: norm, FrozenTraces: true, Seed: 5})
		net.Defect = d
		fillUniform(rng, net.Params(), 0.5)
		tr := randomTrajectory(rng, 0, before+after, 3)
		for _, x := range tr.Xs[:before] {
			net.Step(x)
		}
		net.AdvanceStage()
		top := net.Topology()
		frozen := append([]float64(nil), net.Frozen()...)
		learn := append([]float64(nil), net.Params()...)
		worst := Agreement{}
		got := make([]float64, len(frozen))
		for step := before + 1; step <= before+after; step++ {
			y := net.Step(tr.Xs[step-1])
			net.FrozenGrad(got)
			ys, want, _, err := r.NetworkAll(top, frozen, learn, tr.Xs[:step], nil, true)
			require.NoError(t, err)
			worst = worst.Worst(Measure([]float64{y}, ys[step-1:]))
			worst = worst.Worst(Measure(got, want))
		}
		return worst
	}
	good := check(forward.NoDefect)
	assert.True(t, good.Pass(), "max rel %.3g", good.MaxRel)
	bad := check(forward.DropFrozenTracesAtStage)
	assert.False(t, bad.Pass(), "frozen traces restarted at the stage change pass: max rel %.3g", bad.MaxRel)
	t.Logf("correct %.2g, defective %.2g", good.MaxRel, bad.MaxRel)
}

// TestFrozenBias: the cut gradient is biased wherever a later column reads
// a frozen feature, and exact where none does: with every later column's
// weights on earlier features set to zero, FrozenBias finds no bias.
func TestFrozenBias(t *testing.T) {
	r := reference.New()
	top := frozenTops[2]
	rng := newRand(47, 0)
	net := frozenTracesNetwork(top, rng, 0.5, forward.NoDefect)
	frozen := append([]float64(nil), net.Frozen()...)
	learn := append([]float64(nil), net.Params()...)
	xs := randomTrajectory(rng, 0, 10, top.Inputs).Xs

	biased, err := FrozenBias(r, top, frozen, learn, xs, nil)
	require.NoError(t, err)
	require.Len(t, biased, 2)
	for _, b := range biased {
		t.Logf("stage %d: relative error %.3g, cosine %.4f", b.Stage, b.RelErr, b.Cosine)
		assert.Greater(t, b.RelErr, 1e-3, "stage %d", b.Stage)
		assert.Less(t, b.Cosine, 1-1e-9, "stage %d", b.Stage)
	}

	// Cut every path from an earlier feature into a later column.
	for s := 1; s < top.NumStages(); s++ {
		m := top.ColumnInputs(s)
		for j := range top.Stages[s] {
			block := top.Block(frozen, learn, s, j)
			for q := range arch.NumGates {
				for i := top.Inputs; i < m; i++ {
					block[arch.ColIdxW(m, q, i)] = 0
				}
			}
		}
	}
	exact, err := FrozenBias(r, top, frozen, learn, xs, nil)
	require.NoError(t, err)
	for _, b := range exact {
		assert.Less(t, b.RelErr, 1e-12, "stage %d", b.Stage)
		assert.InDelta(t, 1, b.Cosine, 1e-12, "stage %d", b.Stage)
	}
}

// The gate of a run whose frozen stages learn (FrozenTraces) checks the
// frozen columns' traces at the run's last topology, at both scales, and
// refuses the run when that check fails, naming it; other runs' gates do not
// run it.
func TestGateRunsFrozenCheck(t *testing.T) {
	var tops []arch.Network
	fail := false
	saved := gateCheckFrozen
	t.Cleanup(func() { gateCheckFrozen = saved })
	gateCheckFrozen = func(r *reference.Reference, top arch.Network, tr Trajectory, rng *rand.Rand, d forward.Defect) (Agreement, error) {
		tops = append(tops, top)
		a, err := saved(r, top, tr, rng, d)
		if fail {
			a.MaxRel = 1
		}
		return a, err
	}
	spec := gateSpecs()[arch.MethodCCN]
	require.NoError(t, Gate(spec))
	assert.Empty(t, tops, "a run whose frozen stages stay constant")
	spec.Net.FrozenTraces = true
	require.NoError(t, Gate(spec))
	require.Len(t, tops, len(gateScales))
	assert.Equal(t, spec.Net.MaxFeatures, tops[0].Features(), "the run's last topology")
	fail = true
	var ge *GateError
	require.ErrorAs(t, Gate(spec), &ge)
	assert.Contains(t, ge.Check, "frozen columns' traces")
}
