package truncation

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

func TestCompareGrads(t *testing.T) {
	tests := []struct {
		name     string
		g, exact []float64
		rel, cos float64
	}{
		{"equal", []float64{1, 2}, []float64{1, 2}, 0, 1},
		{"orthogonal", []float64{0, 1}, []float64{1, 0}, math.Sqrt2, 0},
		{"half", []float64{1, 0}, []float64{2, 0}, 0.5, 1},
		{"opposite", []float64{-3, -4}, []float64{3, 4}, 2, -1},
		{"zero truncated", []float64{0, 0}, []float64{3, 4}, 1, 0},
	}
	for _, tc := range tests {
		rel, cos := compareGrads(tc.g, tc.exact)
		assert.InDelta(t, tc.rel, rel, 1e-15, tc.name)
		assert.InDelta(t, tc.cos, cos, 1e-15, tc.name)
	}
	rel, _ := compareGrads([]float64{1}, []float64{0})
	assert.True(t, math.IsInf(rel, 1), "zero exact gradient")
}

// The probe's truncated gradients (package backward) agree with the
// reference's own truncated gradient (Gorgonia graph of the last k steps from
// the plain forward state), an independent implementation; dense RTRL agrees
// with the exact gradient to rounding.
func TestProbeMatchesReferenceTruncation(t *testing.T) {
	ref := reference.New()
	const T, maxK = 12, 6
	for _, hid := range []int{1, 3} {
		shape := arch.Dense{Hidden: hid, Inputs: inputs}
		params := randomParams(shape, uint64(hid))
		xs := record(env.NewTracePatterning(env.TraceConfig{}, 3), 400)[400-T:]
		probe := NewProbe(ref, shape, maxK, 4, 1)
		m := probe.NewMeasurement()
		require.NoError(t, probe.Measure(m, params, xs))

		_, exact, err := ref.Dense(shape, params, xs, nil)
		require.NoError(t, err)
		for k := 1; k <= maxK; k++ {
			_, gk, err := ref.DenseTruncated(shape, params, xs, T, k)
			require.NoError(t, err)
			wantRel, wantCos := compareGrads(gk, exact)
			assert.InDelta(t, wantRel, m.Rel[k], 1e-9*max(1, wantRel), "H=%d k=%d relative error", hid, k)
			assert.InDelta(t, wantCos, m.Cos[k], 1e-9, "H=%d k=%d cosine", hid, k)
			assert.Greater(t, m.Rel[k], 0.0, "k=%d < T is truncated", k)
		}
		assert.Less(t, m.Rel[maxK], m.Rel[1], "H=%d: a longer window is less biased", hid)
		assert.Less(t, m.RTRLRel, 1e-10, "H=%d: dense RTRL is exact", hid)
		assert.InDelta(t, 1, m.RTRLCos, 1e-10, "H=%d", hid)
	}
}

// SnAp-1 is exact for one unit and biased for several; the probe sees both,
// and an injected mistake in SnAp-1 at H = 1 (the recurrent term dropped)
// shows as an error far above rounding.
func TestProbeSnAp1(t *testing.T) {
	ref := reference.New()
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 5), 300)[260:]
	for _, tc := range []struct {
		hid    int
		defect forward.Defect
		exact  bool
	}{{1, forward.NoDefect, true}, {3, forward.NoDefect, false}, {1, forward.DropRecurrentTerm, false}} {
		shape := arch.Dense{Hidden: tc.hid, Inputs: inputs}
		probe := NewProbe(ref, shape, 2, 1, 1)
		probe.snap.Defect = tc.defect
		m := probe.NewMeasurement()
		require.NoError(t, probe.Measure(m, randomParams(shape, 9), xs))
		if tc.exact {
			assert.Less(t, m.SnAp1Rel, 1e-10, "%+v", tc)
		} else {
			assert.Greater(t, m.SnAp1Rel, 1e-4, "%+v", tc)
		}
	}
}

// UORO's draws on one trajectory differ (it is random) and its errors are
// those of the engine run by hand with the same seed.
func TestProbeUORODraws(t *testing.T) {
	ref := reference.New()
	shape := arch.Dense{Hidden: 2, Inputs: inputs}
	params := randomParams(shape, 4)
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 2), 200)[170:]
	const draws, seed = 5, 77
	probe := NewProbe(ref, shape, 3, draws, seed)
	m := probe.NewMeasurement()
	require.NoError(t, probe.Measure(m, params, xs))

	_, exact, err := ref.Dense(shape, params, xs, nil)
	require.NoError(t, err)
	u := forward.NewUORO(shape, seed)
	copy(u.Params(), params)
	g := make([]float64, shape.NumParams())
	for d := range draws {
		u.Reset()
		for _, x := range xs {
			u.Step(x)
		}
		u.Grad(g)
		rel, cos := compareGrads(g, exact)
		assert.Equal(t, rel, m.UORORel[d], "draw %d", d)
		assert.Equal(t, cos, m.UOROCos[d], "draw %d", d)
	}
	assert.NotEqual(t, m.UORORel[0], m.UORORel[1], "independent draws")
}

func TestGradientBiasSmall(t *testing.T) {
	cfg := BiasConfig{Hidden: []int{3, 2}, MaxK: 5, Steps: 10, Points: 3, Seeds: 2, Span: 500, Draws: 4, Timing: time.Millisecond}
	pts, err := GradientBias(cfg)
	require.NoError(t, err)
	const perH = 5 + 3
	require.Len(t, pts, 2*perH)
	for i, p := range pts {
		wantH := []int{3, 2}[i/perH]
		shape := arch.Dense{Hidden: wantH, Inputs: inputs}
		assert.Equal(t, wantH, p.Hidden)
		assert.Equal(t, shape.NumParams(), p.Params)
		assert.Equal(t, 6, p.Samples)
		assert.Equal(t, 2, p.Seeds)
		assert.GreaterOrEqual(t, p.Cos, -1.0)
		assert.LessOrEqual(t, p.Cos, 1.0+1e-12)
		assert.Greater(t, p.Nanos, 0.0, "timed")
		switch j := i % perH; {
		case j < 5:
			assert.Equal(t, arch.MethodTBPTT, p.Method)
			assert.Equal(t, j+1, p.K)
			assert.Equal(t, 1, p.Draws)
			assert.Equal(t, backward.Ops(shape, j+1), p.Ops)
			assert.Greater(t, p.RelErrSE, 0.0, "several different samples")
		case j == 5:
			assert.Equal(t, arch.MethodSnAp1, p.Method)
			assert.Equal(t, forward.NewSnAp1(shape).OpsPerStep(), p.Ops)
			assert.Greater(t, p.RelErr, 1e-6, "H > 1: biased")
		case j == 6:
			assert.Equal(t, arch.MethodUORO, p.Method)
			assert.Equal(t, 4, p.Draws)
			assert.Equal(t, forward.NewUORO(shape, 0).OpsPerStep(), p.Ops)
			assert.Greater(t, p.RelErrSD, 0.0, "draws differ")
			assert.Greater(t, p.CosSD, 0.0, "draws differ")
		default:
			assert.Equal(t, arch.MethodRTRL, p.Method)
			assert.Equal(t, forward.NewDenseRTRL(shape).OpsPerStep(), p.Ops)
			assert.Less(t, p.RelErr, 1e-10, "exact")
		}
		if p.Method != arch.MethodUORO {
			assert.Zero(t, p.RelErrSD)
			assert.Zero(t, p.CosSD)
		}
	}
	assert.Less(t, pts[4].RelErr, pts[0].RelErr, "k=5 less biased than k=1")

	again, err := GradientBias(cfg)
	require.NoError(t, err)
	for i := range again {
		again[i].Nanos = pts[i].Nanos // timings vary
	}
	assert.Equal(t, pts, again, "deterministic")

	cfg.ForgetBias = 3
	longer, err := GradientBias(cfg)
	require.NoError(t, err)
	assert.Greater(t, longer[4].RelErr, pts[4].RelErr, "a forget bias lengthens memory and the bias of k=5")
}

// randomParams returns parameters of shape from U(−1, 1).
func randomParams(shape arch.Dense, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	params := make([]float64, shape.NumParams())
	for i := range params {
		params[i] = 2*rng.Float64() - 1
	}
	return params
}

func TestBiasConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  BiasConfig
		want string
	}{
		{"steps not above k", BiasConfig{MaxK: 10, Steps: 10}, "cannot show k up to 10"},
		{"span below steps", BiasConfig{Steps: 100, Span: 50}, "span 50 shorter"},
		{"bad hidden", BiasConfig{Hidden: []int{2, 0}}, "hidden size 0"},
		{"empty hidden", BiasConfig{Hidden: []int{}}, "no hidden sizes"},
		{"negative points", BiasConfig{Points: -1}, "negative or zero"},
		{"negative draws", BiasConfig{Draws: -1}, "negative or zero"},
		{"negative timing", BiasConfig{Timing: -time.Second}, "negative or zero"},
		{"NaN scale", BiasConfig{Scale: math.NaN()}, "not finite"},
	}
	for _, tc := range tests {
		assert.ErrorContains(t, tc.cfg.Validate(), tc.want, tc.name)
	}
	assert.NoError(t, BiasConfig{}.Validate(), "the defaults are valid")
	assert.PanicsWithValue(t, "truncation: span 50 shorter than a trajectory of 100 steps", func() {
		GradientBias(BiasConfig{Steps: 100, Span: 50})
	})
}

func BenchmarkProbeMeasure(b *testing.B) {
	shape := arch.Dense{Hidden: 4, Inputs: inputs}
	ref := reference.New()
	probe := NewProbe(ref, shape, 60, 20, 1)
	params := randomParams(shape, 1)
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 1), 120)
	m := probe.NewMeasurement()
	require.NoError(b, probe.Measure(m, params, xs)) // builds the graph
	b.ResetTimer()
	for range b.N {
		if err := probe.Measure(m, params, xs); err != nil {
			b.Fatal(err)
		}
	}
}

// The exact witnesses have teeth: dense RTRL with its recurrent term dropped
// stops the study instead of passing as rounding.
func TestProbeRefusesAWrongWitness(t *testing.T) {
	ref := reference.New()
	shape := arch.Dense{Hidden: 2, Inputs: inputs}
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 2), 100)[80:]
	probe := NewProbe(ref, shape, 3, 2, 1)
	m := probe.NewMeasurement()
	params := randomParams(shape, 3)
	require.NoError(t, probe.Measure(m, params, xs))
	probe.rtrl.Defect = forward.DropRecurrentTerm
	assert.ErrorContains(t, probe.Measure(m, params, xs), "reference and dense RTRL disagree over T=20 steps")
}
