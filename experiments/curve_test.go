package experiments

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadCurveReadsWhatRunWrites(t *testing.T) {
	dir := t.TempDir()
	var b []byte
	b = append(b, curveHeader+"\n"...)
	b = appendCurveRow(b, 10_000, 0.1)
	b = appendCurveRow(b, 20_000, 1.0/3)
	b = appendCurveRow(b, 20_001, 2e-300)
	path := filepath.Join(dir, CurveFile)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	assert.Equal(t, "step,error\n10000,0.1\n20000,0.3333333333333333\n20001,2e-300\n", string(b))
	steps, errs, err := ReadCurve(path)
	require.NoError(t, err)
	assert.Equal(t, []int{10_000, 20_000, 20_001}, steps)
	assert.Equal(t, []float64{0.1, 1.0 / 3, 2e-300}, errs, "bitwise: shortest form reads back exactly")
}

func TestReadCurveRejectsOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), CurveFile)
	tests := []struct{ content, want string }{
		{"t,prediction,return\n1,2,3\n", `header "t,prediction,return", want "step,error"`},
		{"step,error\n1,x\n", "curve.csv:2"},
		{"step,error\n1,2,3\n", "curve.csv:2: 3 fields, want 2"},
		{"step,error\n1.5,2\n", "step 1.5 is not an integer"},
		{"", "empty file"},
	}
	for _, tt := range tests {
		require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
		_, _, err := ReadCurve(path)
		assert.ErrorContains(t, err, tt.want, "%q", tt.content)
	}
	_, _, err := ReadCurve(filepath.Join(t.TempDir(), "missing.csv"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestReadPredictions(t *testing.T) {
	path := filepath.Join(t.TempDir(), PredictionsFile)
	ring := make([]float64, 3*PredictionsKept)
	for i := range 3 {
		ring[3*i], ring[3*i+1], ring[3*i+2] = float64(i), 0.5*float64(i), 0.25
	}
	require.NoError(t, os.WriteFile(path, predictionsCSV(ring, 3), 0o644))
	ts, pred, ret, err := ReadPredictions(path)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 1, 2}, ts)
	assert.Equal(t, []float64{0, 0.5, 1}, pred)
	assert.Equal(t, []float64{0.25, 0.25, 0.25}, ret)
}
