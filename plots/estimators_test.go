package plots

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GradientEstimators draws a column per panel and reports what is missing
// instead of drawing a broken axis.
func TestGradientEstimatorsMissing(t *testing.T) {
	ok := func() []EstimatorPanel {
		return []EstimatorPanel{{Title: "H = 2", Series: []EstimatorSeries{
			{Label: "T-BPTT", Method: "tbptt", Ops: []float64{100, 200}, RelErr: []float64{0.1, 0.01}, Cos: []float64{0.9, 0.99}},
			{Label: "UORO", Method: "uoro", Ops: []float64{150}, RelErr: []float64{2}, RelErrSpread: []float64{1.5}, Cos: []float64{0.4}, CosSpread: []float64{0.3}},
		}}}
	}
	g, err := GradientEstimators("t", append(ok(), ok()...))
	require.NoError(t, err)
	assert.Equal(t, 2, g.Rows)
	assert.Equal(t, 2, g.Cols)

	tests := []struct {
		name   string
		change func([]EstimatorPanel) []EstimatorPanel
		want   string
	}{
		{"no panels", func([]EstimatorPanel) []EstimatorPanel { return nil }, "no panels"},
		{"no series", func(p []EstimatorPanel) []EstimatorPanel { p[0].Series = nil; return p }, `panel "H = 2": no series`},
		{"zero error", func(p []EstimatorPanel) []EstimatorPanel { p[0].Series[0].RelErr[1] = 0; return p }, "relative errors[1] = 0 is not positive"},
		{"short cosines", func(p []EstimatorPanel) []EstimatorPanel { p[0].Series[0].Cos = p[0].Series[0].Cos[:1]; return p }, "1 cosines for 2 x values"},
		{"spread length", func(p []EstimatorPanel) []EstimatorPanel { p[0].Series[1].CosSpread = []float64{}; return p }, "no cosine spreads"},
		{"new method", func(p []EstimatorPanel) []EstimatorPanel {
			p = append(p, ok()...)
			p[1].Series[1].Method = "rtrl"
			return p
		}, `method "rtrl" not in the first panel`},
	}
	for _, tc := range tests {
		_, err := GradientEstimators("t", tc.change(ok()))
		var me *MissingError
		require.True(t, errors.As(err, &me), "%s: %v", tc.name, err)
		assert.Contains(t, me.What, tc.want, tc.name)
	}
}

// decadeTicks labels about six of many decades and falls back to log10Ticks
// over a few.
func TestDecadeTicks(t *testing.T) {
	ticks := decadeTicks{}.Ticks(-15.3, 0.4)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Len(t, ticks, 16, "one tick per decade 1e-15..1")
	assert.Equal(t, []string{"1e-15", "1e-12", "1e-9", "1e-6", "0.001", "1"}, labels)
	assert.Equal(t, log10Ticks{}.Ticks(-2.5, 1.2), decadeTicks{}.Ticks(-2.5, 1.2))
}
