package plots

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStagePanelsRejectBadData: the stage panels draw what they are given
// and refuse what cannot be drawn, missing data as a *MissingError.
func TestStagePanelsRejectBadData(t *testing.T) {
	fixed := []FixedSchedule{{Label: "fixed 1k", Freezes: []float64{1000, 2000}}}
	for _, tt := range []struct {
		name    string
		draw    func() error
		missing bool
		wantErr bool
	}{
		{"freezes", func() error { _, err := StageFreezes("t", [][]float64{{500, 1500}, {700}}, fixed); return err }, false, false},
		{"no freeze", func() error { _, err := StageFreezes("t", [][]float64{nil, {}}, fixed); return err }, true, true},
		{"NaN freeze", func() error { _, err := StageFreezes("t", [][]float64{{math.NaN()}}, fixed); return err }, false, true},
		{"lengths", func() error { _, err := StageLengths("t", []float64{500, 1000, 1000}, 5, fixed); return err }, false, false},
		{"equal lengths", func() error { _, err := StageLengths("t", []float64{3000, 3000}, 5, nil); return err }, false, false},
		{"no length", func() error { _, err := StageLengths("t", nil, 5, fixed); return err }, true, true},
		{"negative length", func() error { _, err := StageLengths("t", []float64{-1}, 5, fixed); return err }, false, true},
		{"no bins", func() error { _, err := StageLengths("t", []float64{1}, 0, fixed); return err }, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.draw()
			if !tt.wantErr {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			var m *MissingError
			assert.Equal(t, tt.missing, errors.As(err, &m), "%v", err)
		})
	}
}

// TestCountTicks: whole numbers only, at most about ten labels.
func TestCountTicks(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   []float64
	}{
		{0.5, 4.2, []float64{1, 2, 3, 4}},
		{0, 19, []float64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}},
		{0, 45, []float64{0, 5, 10, 15, 20, 25, 30, 35, 40, 45}},
	} {
		var got []float64
		for _, tk := range (countTicks{}).Ticks(tt.lo, tt.hi) {
			got = append(got, tk.Value)
			assert.Equal(t, tk.Label, trimFloat(tk.Value))
		}
		assert.Equal(t, tt.want, got, "%v-%v", tt.lo, tt.hi)
	}
}
