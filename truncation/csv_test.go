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
		{Method: arch.MethodTBPTT, Hidden: 2, Params: 122, K: 1, Draws: 1, RelErr: 0.25, RelErrSE: 0.01, Cos: 0.97, CosSE: 1e-3,
			Samples: 40, Seeds: 4, Ops: 1030, Nanos: 812.5},
		{Method: arch.MethodTBPTT, Hidden: 2, Params: 122, K: 2, Draws: 1, RelErr: 1.0 / 3, RelErrSE: 1e-300, Cos: -0.5, CosSE: 0,
			Samples: 40, Seeds: 4, Ops: 1500, Nanos: math.Pi},
		{Method: arch.MethodUORO, Hidden: 2, Params: 122, Draws: 20, RelErr: 2.5, RelErrSE: 0.1, RelErrSD: 1.25, Cos: 0.25, CosSE: 0.01,
			CosSD: 0.3, Samples: 40, Seeds: 4, Ops: 1234, Nanos: 1e4},
	}
	var buf bytes.Buffer
	require.NoError(t, WriteBiasCSV(&buf, pts))
	assert.True(t, strings.HasPrefix(buf.String(),
		"method,hidden,params,k,draws,rel_err,rel_err_se,rel_err_sd,cos,cos_se,cos_sd,samples,seeds,ops_per_step,ns_per_step\n"))
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
		{"bias old header", "hidden,params,k,rel_err,rel_err_se,cos,cos_se,samples,seeds\n", readBias, "older ccn truncation"},
		{"bias number", biasHead + "tbptt,2,122,1,1,x,0,0,1,0,0,1,1,100,1\n", readBias, "row 2"},
		{"bias method", biasHead + "bptt,2,122,1,1,0.5,0,0,1,0,0,1,1,100,1\n", readBias, `row 2: method "bptt"`},
		{"bias fields", biasHead + "tbptt,2,122\n", readBias, "row 2 has 3 fields, want 15"},
		{"cost header", "method,label\n", readCost, "header is not"},
		{"cost number", "method,label,size,params,us_per_step\nccn,CCN,4,many,1\n", readCost, "row 2"},
	}
	for _, tc := range tests {
		assert.ErrorContains(t, tc.read(tc.data), tc.want, tc.name)
	}
}

const biasHead = "method,hidden,params,k,draws,rel_err,rel_err_se,rel_err_sd,cos,cos_se,cos_sd,samples,seeds,ops_per_step,ns_per_step\n"

func readBias(s string) error { _, err := ReadBiasCSV(strings.NewReader(s)); return err }
func readCost(s string) error { _, err := ReadCostCSV(strings.NewReader(s)); return err }
