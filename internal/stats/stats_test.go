package stats

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeanSE(t *testing.T) {
	tests := []struct {
		name     string
		xs       []float64
		mean, se float64
	}{
		// s² = (2.25+0.25+0.25+2.25)/3 = 5/3, s.e. = √(5/3)/√4.
		{"four", []float64{1, 2, 3, 4}, 2.5, math.Sqrt(5.0/3) / 2},
		{"equal", []float64{2, 2, 2}, 2, 0},
		// s² = 0.02, s.e. = √0.02/√2 = 0.1.
		{"two", []float64{0.2, 0.4}, 0.3, 0.1},
		{"one", []float64{7}, 7, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, se := MeanSE(tt.xs)
			assert.InDelta(t, tt.mean, m, 1e-15)
			assert.InDelta(t, tt.se, se, 1e-15)
		})
	}
	m, se := MeanSE(nil)
	assert.True(t, math.IsNaN(m))
	assert.True(t, math.IsNaN(se))
}

func ExampleMeanSE() {
	fmt.Println(MeanSE([]float64{1, 2, 3, 4}))
	fmt.Println(MeanSE([]float64{7}))
	// Output:
	// 2.5 0.6454972243679028
	// 7 0
}
