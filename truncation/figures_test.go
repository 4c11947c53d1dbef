package truncation

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/plots"
)

func synthBias() []BiasPoint {
	var pts []BiasPoint
	for _, h := range []int{10, 2} {
		for k := 1; k <= 5; k++ {
			pts = append(pts, BiasPoint{Hidden: h, Params: 10 * h, K: k, RelErr: 1 / float64(k*h), RelErrSE: 0.01, Cos: 1 - 0.1/float64(k), CosSE: 0.01, Samples: 6, Seeds: 2})
		}
	}
	return pts
}

func synthCost() []CostPoint {
	return []CostPoint{
		{Method: MethodColumnar, Label: "Columnar RTRL", Size: 16, Params: 900, Micros: 3},
		{Method: MethodColumnar, Label: "Columnar RTRL", Size: 4, Params: 229, Micros: 1},
		{Method: MethodTBPTT, Label: "T-BPTT k=1", Size: 2, Params: 122, Micros: 0.4},
		{Method: MethodTBPTT, Label: "T-BPTT k=10", Size: 2, Params: 122, Micros: 2},
		{Method: MethodRTRL, Label: "dense exact RTRL", Size: 2, Params: 122, Micros: 3.4},
	}
}

func TestFigures(t *testing.T) {
	g, err := BiasFigure(synthBias())
	require.NoError(t, err)
	assert.Equal(t, 2, g.Cols)
	p, err := CostFigure(synthCost())
	require.NoError(t, err)
	assert.NotNil(t, p)

	_, err = BiasFigure(nil)
	var me *plots.MissingError
	assert.True(t, errors.As(err, &me), "no points is missing data: %v", err)
	_, err = CostFigure(nil)
	assert.True(t, errors.As(err, &me), "no points is missing data: %v", err)
}

func TestRenderFromCSVs(t *testing.T) {
	dir := t.TempDir()
	var b, c bytes.Buffer
	require.NoError(t, WriteBiasCSV(&b, synthBias()))
	require.NoError(t, WriteCostCSV(&c, synthCost()))
	require.NoError(t, os.WriteFile(filepath.Join(dir, BiasCSV), b.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, CostCSV), c.Bytes(), 0o644))
	out := filepath.Join(dir, "figs")
	require.NoError(t, os.Mkdir(out, 0o755))
	require.NoError(t, Render(dir, out))
	for _, f := range []string{"gradient_bias.png", "gradient_bias.pdf", "cost.png", "cost.pdf"} {
		st, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
		assert.Greater(t, st.Size(), int64(1000), f)
	}

	err := Render(filepath.Join(dir, "nothing"), out)
	assert.ErrorContains(t, err, BiasCSV)
}
