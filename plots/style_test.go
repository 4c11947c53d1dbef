package plots

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFamilyStylesDistinct: curves of one method (the k:H pairs) each get
// their own colour and line style; curves of different methods keep their
// method's colour, solid.
func TestFamilyStylesDistinct(t *testing.T) {
	methods := make([]string, 8)
	for i := range methods {
		methods[i] = "tbptt"
	}
	st, err := curveStyles("f", methods)
	require.NoError(t, err)
	colours := map[string]bool{}
	for i, s := range st {
		colours[fmt.Sprint(s.Color)] = true
		if i > 0 {
			assert.NotEqual(t, fmt.Sprint(st[i-1].Dashes), fmt.Sprint(s.Dashes), "neighbours %d and %d differ in line style", i-1, i)
		}
	}
	assert.Len(t, colours, 8, "eight curves of one method, eight colours")

	st, err = curveStyles("f", []string{"ccn", "columnar", "T-BPTT"})
	require.NoError(t, err)
	for i, m := range []string{"ccn", "columnar", "tbptt"} {
		c, _ := MethodColor(m)
		assert.Equal(t, c, st[i].Color, m)
		assert.Nil(t, st[i].Dashes, m)
	}
}

// TestStepTicksEven: step axes are labelled at evenly spaced round values
// (0, 0.5M, 1M, ...), never at values like 1.9994M.
func TestStepTicksEven(t *testing.T) {
	for _, r := range [][2]float64{{0, 2e6}, {0, 1e7}, {0, 2e4}, {0, 3e6}, {0, 400}, {0, 2.5e6}} {
		var vals []float64
		var labels []string
		for _, tk := range (stepTicks{}).Ticks(r[0], r[1]) {
			if tk.Label != "" {
				vals = append(vals, tk.Value)
				labels = append(labels, tk.Label)
			}
		}
		require.GreaterOrEqual(t, len(vals), 3, "%v: %v", r, labels)
		assert.LessOrEqual(t, len(vals), 7, "%v: %v", r, labels)
		assert.Equal(t, "0", labels[0], "%v starts at 0", r)
		gap := vals[1] - vals[0]
		for i := 2; i < len(vals); i++ {
			assert.InDelta(t, gap, vals[i]-vals[i-1], 1e-9*gap, "%v: even spacing %v", r, labels)
		}
		m := gap / math.Pow(10, math.Floor(math.Log10(gap)))
		assert.Contains(t, []float64{1, 2, 2.5, 5}, math.Round(m*10)/10, "%v: round spacing %v", r, gap)
		for _, l := range labels {
			num := strings.TrimRight(l, "Mk")
			if i := strings.IndexByte(num, '.'); i >= 0 {
				assert.LessOrEqual(t, len(num)-i-1, 1, "%v: label %q has too many decimals", r, l)
			}
		}
	}
	var labels []string
	for _, tk := range (stepTicks{}).Ticks(0, 2e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, []string{"0", "0.5M", "1M", "1.5M", "2M"}, labels)
}

// TestReferencesAreNotLegendEntries: reference lines are labelled on the
// panel; the legend lists only the curves.
func TestReferencesAreNotLegendEntries(t *testing.T) {
	c := Curve{Label: "CCN", Method: "ccn", Steps: []float64{1, 2}, Mean: []float64{0.02, 0.01}, Seeds: 1}
	p, err := LearningCurves("t", []Curve{c})
	require.NoError(t, err)
	w := legendWidth(p)
	p2, err := LearningCurves("t", []Curve{c}, Baseline(0.0187), MethodReference("CCN final error", 0.008))
	require.NoError(t, err)
	assert.Equal(t, w, legendWidth(p2), "references add no legend entry")
	assert.LessOrEqual(t, p2.Y.Min, 0.008, "a reference is always in view")
	assert.GreaterOrEqual(t, p2.Y.Max, 0.0187)
	_, err = LearningCurves("t", []Curve{c}, Baseline(math.NaN()))
	var me *MissingError
	assert.ErrorAs(t, err, &me, "a non-finite reference is missing data")
}
