package plots

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A point with an interval is drawn from Low to High (even when the
// interval leaves the mean out, as c's); without one, Mean ± StdErr; the y axis says
// which when every bar is an interval.
func TestNormalizedErrorsIntervals(t *testing.T) {
	pts := []Point{
		{Label: "a", Method: "ccn", Mean: 1, StdErr: 0.1, Low: 0.8, High: 1.5, Interval: true},
		{Label: "b", Method: "columnar", Mean: 2, StdErr: 0.25},
		{Label: "c", Method: "constructive", Mean: 0.5, Low: 0.6, High: 0.9, Interval: true},
	}
	// Each point alone: the y range is its bar and point (the line at one lies inside).
	want := [][2]float64{{0.8, 1.5}, {0.75, 1.25}, {0.5, 1.1}} // c: its mean below its bar
	pts[1].Mean, pts[2].Mean, pts[2].High = 1, 0.5, 1.1
	for i, pt := range pts {
		p, err := NormalizedErrors("t", "x", "one", []Point{pt})
		require.NoError(t, err)
		assert.InDelta(t, want[i][0], p.Y.Min, 1e-12, "entry %s low", pt.Label)
		assert.InDelta(t, want[i][1], p.Y.Max, 1e-12, "entry %s high", pt.Label)
	}
	p, err := NormalizedErrors("t", "x", "one", pts)
	require.NoError(t, err)
	assert.Equal(t, NormalizedLabel, p.Y.Label.Text, "mixed bars")

	p, err = NormalizedErrors("t", "x", "one", []Point{pts[0], pts[2], {Label: "d", Method: "ccn", Mean: math.NaN()}})
	require.NoError(t, err)
	assert.Equal(t, NormalizedIntervalLabel, p.Y.Label.Text, "every drawn bar an interval")

	// A point without interval or s.e. (one run) is drawn alone, leaves the
	// label to the others' bars, and spans no bar: the range is its point's.
	alone := Point{Label: "e", Method: "ccn", Mean: 0.7, StdErr: math.NaN()}
	p, err = NormalizedErrors("t", "x", "one", []Point{pts[0], alone})
	require.NoError(t, err)
	assert.Equal(t, NormalizedIntervalLabel, p.Y.Label.Text, "the only bar an interval")
	assert.InDelta(t, 0.7, p.Y.Min, 1e-12, "the lone point is the lowest")
	p, err = NormalizedErrors("t", "x", "one", []Point{alone})
	require.NoError(t, err)
	assert.InDelta(t, 0.7, p.Y.Min, 1e-12, "no bar below the point")

	for _, bad := range []Point{
		{Label: "nan", Method: "ccn", Mean: 1, Low: math.NaN(), High: 2, Interval: true},
		{Label: "inf", Method: "ccn", Mean: 1, Low: 0, High: math.Inf(1), Interval: true},
		{Label: "inverted", Method: "ccn", Mean: 1, Low: 2, High: 0.5, Interval: true},
	} {
		_, err := NormalizedErrors("t", "x", "one", []Point{bad})
		assert.ErrorContains(t, err, bad.Label, bad.Label)
	}
}
