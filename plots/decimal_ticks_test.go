package plots

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
)

// Every label reads back as its tick's value, at the same number of
// decimals on one axis; plot.DefaultTicks labels 1.01 "1" over [0.965,
// 1.012] (the Atari capacity figure's range), which this would catch.
func TestDecimalTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{0.965, 1.012, []string{"0.97", "0.99", "1.01"}},
		{0.96, 1.02, []string{"0.96", "0.99", "1.02"}},
		{1, 2.05, []string{"1.0", "1.5", "2.0"}},
		{0.8, 1.9, []string{"0.9", "1.2", "1.5", "1.8"}},
		{0, 40, []string{"0", "20", "40"}},
	} {
		var got []string
		for _, tk := range (decimalTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label == "" {
				continue
			}
			got = append(got, tk.Label)
			v, err := strconv.ParseFloat(tk.Label, 64)
			require.NoError(t, err)
			assert.InDelta(t, tk.Value, v, 1e-9, "label %q of tick %v", tk.Label, tk.Value)
		}
		assert.Equal(t, tc.want, got, "[%v, %v]", tc.lo, tc.hi)
	}
	var def []string
	for _, tk := range (plot.DefaultTicks{}).Ticks(0.965, 1.012) {
		def = append(def, tk.Label)
	}
	assert.Contains(t, def, "1", "gonum's labels, which decimalTicks mends, still round 1.01")
}
