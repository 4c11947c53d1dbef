package truncation

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBiasCSVRoundTrip(t *testing.T) {
	pts := []BiasPoint{
		{Hidden: 2, Params: 122, K: 1, RelErr: 0.25, RelErrSE: 0.01, Cos: 0.97, CosSE: 1e-3, Samples: 40, Seeds: 4},
		{Hidden: 2, Params: 122, K: 2, RelErr: 1.0 / 3, RelErrSE: 1e-300, Cos: -0.5, CosSE: 0, Samples: 40, Seeds: 4},
	}
	var buf bytes.Buffer
	require.NoError(t, WriteBiasCSV(&buf, pts))
	assert.True(t, strings.HasPrefix(buf.String(), "hidden,params,k,rel_err,rel_err_se,cos,cos_se,samples,seeds\n"))
	back, err := ReadBiasCSV(&buf)
	require.NoError(t, err)
	assert.Equal(t, pts, back, "exact round trip")
}

func TestCostCSVRoundTrip(t *testing.T) {
	pts := []CostPoint{
		{Method: arch.MethodTBPTT, Label: "T-BPTT k=10, \"quoted\"", Size: 8, Params: 680, Micros: math.Pi},
		{Method: arch.MethodRTRL, Label: "dense exact RTRL", Size: 2, Params: 122, Micros: 3.5},
	}
	var buf bytes.Buffer
	require.NoError(t, WriteCostCSV(&buf, pts))
	back, err := ReadCostCSV(&buf)
	require.NoError(t, err)
	assert.Equal(t, pts, back)
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name, data string
		read       func(string) error
		want       string
	}{
		{"bias header", "h,p\n", readBias, "header is not"},
		{"bias empty", "", readBias, "header is not"},
		{"bias number", "hidden,params,k,rel_err,rel_err_se,cos,cos_se,samples,seeds\n2,122,1,x,0,1,0,1,1\n", readBias, "row 2"},
		{"bias fields", "hidden,params,k,rel_err,rel_err_se,cos,cos_se,samples,seeds\n2,122\n", readBias, "row 2 has 2 fields, want 9"},
		{"cost header", "method,label\n", readCost, "header is not"},
		{"cost number", "method,label,size,params,us_per_step\nccn,CCN,4,many,1\n", readCost, "row 2"},
	}
	for _, tc := range tests {
		assert.ErrorContains(t, tc.read(tc.data), tc.want, tc.name)
	}
}

func readBias(s string) error { _, err := ReadBiasCSV(strings.NewReader(s)); return err }
func readCost(s string) error { _, err := ReadCostCSV(strings.NewReader(s)); return err }
