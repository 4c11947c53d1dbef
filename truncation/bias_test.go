package truncation

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
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
// the plain forward state), an independent implementation.
func TestProbeMatchesReferenceTruncation(t *testing.T) {
	ref := reference.New()
	const T, maxK = 12, 6
	for _, hid := range []int{1, 3} {
		shape := arch.Dense{Hidden: hid, Inputs: inputs}
		rng := rand.New(rand.NewPCG(7, uint64(hid)))
		params := make([]float64, shape.NumParams())
		for i := range params {
			params[i] = 2*rng.Float64() - 1
		}
		xs := record(env.NewTracePatterning(env.TraceConfig{}, 3), 400)[400-T:]
		rel, cos := make([]float64, maxK+1), make([]float64, maxK+1)
		require.NoError(t, NewProbe(ref, shape, maxK).Measure(rel, cos, params, xs))

		_, exact, err := ref.Dense(shape, params, xs, nil)
		require.NoError(t, err)
		for k := 1; k <= maxK; k++ {
			_, gk, err := ref.DenseTruncated(shape, params, xs, T, k)
			require.NoError(t, err)
			wantRel, wantCos := compareGrads(gk, exact)
			assert.InDelta(t, wantRel, rel[k], 1e-9*max(1, wantRel), "H=%d k=%d relative error", hid, k)
			assert.InDelta(t, wantCos, cos[k], 1e-9, "H=%d k=%d cosine", hid, k)
			assert.Greater(t, rel[k], 0.0, "k=%d < T is truncated", k)
		}
		assert.Less(t, rel[maxK], rel[1], "H=%d: a longer window is less biased", hid)
	}
}

func TestGradientBiasSmall(t *testing.T) {
	cfg := BiasConfig{Hidden: []int{3, 2}, MaxK: 5, Steps: 10, Points: 3, Seeds: 2, Span: 500}
	pts, err := GradientBias(cfg)
	require.NoError(t, err)
	require.Len(t, pts, 10)
	for i, p := range pts {
		wantH := []int{3, 2}[i/5]
		assert.Equal(t, wantH, p.Hidden)
		assert.Equal(t, arch.Dense{Hidden: wantH, Inputs: inputs}.NumParams(), p.Params)
		assert.Equal(t, i%5+1, p.K)
		assert.Equal(t, 6, p.Samples)
		assert.Equal(t, 2, p.Seeds)
		assert.GreaterOrEqual(t, p.Cos, -1.0)
		assert.LessOrEqual(t, p.Cos, 1.0+1e-12)
		assert.Greater(t, p.RelErrSE, 0.0, "several different samples")
	}
	assert.Less(t, pts[4].RelErr, pts[0].RelErr, "k=5 less biased than k=1")

	again, err := GradientBias(cfg)
	require.NoError(t, err)
	assert.Equal(t, pts, again, "deterministic")

	cfg.ForgetBias = 3
	longer, err := GradientBias(cfg)
	require.NoError(t, err)
	assert.Greater(t, longer[4].RelErr, pts[4].RelErr, "a forget bias lengthens memory and the bias of k=5")
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
	probe := NewProbe(ref, shape, 60)
	rng := rand.New(rand.NewPCG(1, 1))
	params := make([]float64, shape.NumParams())
	for i := range params {
		params[i] = 2*rng.Float64() - 1
	}
	xs := record(env.NewTracePatterning(env.TraceConfig{}, 1), 120)
	rel, cos := make([]float64, 61), make([]float64, 61)
	require.NoError(b, probe.Measure(rel, cos, params, xs)) // builds the graph
	b.ResetTimer()
	for range b.N {
		if err := probe.Measure(rel, cos, params, xs); err != nil {
			b.Fatal(err)
		}
	}
}
