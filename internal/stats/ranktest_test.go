package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7}, 7},
	}
	for _, tt := range tests {
		xs := append([]float64(nil), tt.xs...)
		assert.Equal(t, tt.want, Median(xs))
		assert.Equal(t, tt.xs, xs, "Median must not reorder its argument")
	}
	assert.True(t, math.IsNaN(Median(nil)))
}

// TestMannWhitney checks U and p against values worked by hand from the
// definitions (ranks, tie groups, normal approximation).
func TestMannWhitney(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		u    float64
		z    float64 // (|U − nx·ny/2| − 1/2)/σ
	}{
		// Ranks of x: 1, 2, 3; U = 6 − 6 = 0; σ² = 9/12·7 = 5.25.
		{"separated", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, 4 / math.Sqrt(5.25)},
		// Pooled 1 2 2 2 3 4: ranks of x 1, 3, 3; U = 7 − 6 = 1; one tie
		// group of 3: Σ(t³−t) = 24, σ² = 9/12·(7 − 24/30) = 4.65.
		{"ties", []float64{1, 2, 2}, []float64{2, 3, 4}, 1, 3 / math.Sqrt(4.65)},
		// Interleaved: U = nx·ny/2, z clipped at 0, p = 1.
		{"interleaved", []float64{1, 4}, []float64{2, 3}, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, p := MannWhitney(tt.x, tt.y)
			assert.Equal(t, tt.u, u)
			assert.InDelta(t, math.Erfc(tt.z/math.Sqrt2), p, 1e-14)
			// Two-sided: swapping the samples gives nx·ny − U and the same p.
			u2, p2 := MannWhitney(tt.y, tt.x)
			assert.Equal(t, float64(len(tt.x)*len(tt.y))-tt.u, u2)
			assert.InDelta(t, p, p2, 1e-14)
		})
	}
	_, p := MannWhitney([]float64{1, 1}, []float64{1, 1})
	assert.True(t, math.IsNaN(p), "all tied")
	_, p = MannWhitney(nil, []float64{1})
	assert.True(t, math.IsNaN(p))
}

func TestBootstrapCI(t *testing.T) {
	x := []float64{0.9, 1.1, 1.0, 0.95, 1.05, 1.02, 0.98, 1.01}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v + 10
	}
	for _, f := range []func([]float64) float64{Median, Mean} {
		lo, hi := BootstrapCI(x, y, f, 2000, 0.95)
		assert.True(t, lo > 9.9 && lo < 10 && hi > 10 && hi < 10.1, "[%g, %g] should bracket 10 tightly", lo, hi)
		lo2, hi2 := BootstrapCI(x, y, f, 2000, 0.95)
		assert.Equal(t, [2]float64{lo, hi}, [2]float64{lo2, hi2}, "deterministic")
		nlo, nhi := BootstrapCI(y, x, f, 2000, 0.95)
		assert.True(t, nhi < -9.9 && nlo > -10.1, "the difference is y − x")
	}
	lo, hi := BootstrapCI(nil, x, Median, 10, 0.95)
	assert.True(t, math.IsNaN(lo) && math.IsNaN(hi))
	// One value resamples only to itself: no interval (Resamplable).
	lo, hi = BootstrapCI([]float64{1}, x, Median, 10, 0.95)
	assert.True(t, math.IsNaN(lo) && math.IsNaN(hi), "one value")
	lo, hi = BootstrapCI([]float64{1, 1}, []float64{3, 3}, Median, 10, 0.95)
	assert.Equal(t, [2]float64{2, 2}, [2]float64{lo, hi}, "two equal values: an interval, of width zero")
}

func TestResamplable(t *testing.T) {
	assert.True(t, Resamplable())
	assert.True(t, Resamplable([]float64{1, 2}, []float64{3, 4, 5}))
	assert.False(t, Resamplable([]float64{1, 2}, []float64{3}))
	assert.False(t, Resamplable(nil))
}
