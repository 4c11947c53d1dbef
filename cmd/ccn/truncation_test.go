package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/report"
	"github.com/ccn-go/ccn/truncation"
)

// tinyTruncation are the flags of a study that runs in about a second.
var tinyTruncation = []string{
	"--hidden", "2", "--max-k", "4", "--steps", "8", "--points", "2", "--seeds", "2", "--draws", "3",
	"--features", "4", "--tbptt-hidden", "2", "--rtrl-hidden", "2", "--ks", "1,3", "--cost-ms", "1",
}

func TestTruncationTiny(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLI(append([]string{"truncation", "--out", dir}, tinyTruncation...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "truncation study written to "+dir)
	assert.Contains(t, stderr, "gradient bias H=2 seed 2/2")
	assert.Contains(t, stderr, "cost T-BPTT k=3")

	f, err := os.Open(filepath.Join(dir, truncation.BiasCSV))
	require.NoError(t, err)
	bias, err := truncation.ReadBiasCSV(f)
	f.Close()
	require.NoError(t, err)
	require.Len(t, bias, 4+3, "k = 1..4 for H = 2, then SnAp-1, UORO, RTRL")
	for i, p := range bias {
		if i < 4 {
			assert.Equal(t, i+1, p.K)
		}
		assert.Equal(t, 4, p.Samples, "2 points × 2 seeds")
		assert.Greater(t, p.Nanos, 0.0, "timed")
	}
	assert.Equal(t, []arch.Method{"snap1", "uoro", "rtrl"}, []arch.Method{bias[4].Method, bias[5].Method, bias[6].Method})
	assert.Equal(t, 3, bias[5].Draws, "--draws")

	f, err = os.Open(filepath.Join(dir, truncation.CostCSV))
	require.NoError(t, err)
	cost, err := truncation.ReadCostCSV(f)
	f.Close()
	require.NoError(t, err)
	methods := map[arch.Method]int{}
	for _, p := range cost {
		methods[p.Method]++
		assert.Greater(t, p.Micros, 0.0, p.Label)
	}
	// CCN needs at least one stage of 4 features: size 4 is one stage.
	assert.Equal(t, map[arch.Method]int{"columnar": 1, "ccn": 1, "tbptt": 2, "rtrl": 1}, methods)

	for _, base := range []string{report.NameGradientBias, report.NameGradientEstimators, report.NameCost} {
		raw, err := os.ReadFile(filepath.Join(dir, base+".png"))
		require.NoError(t, err)
		_, err = png.DecodeConfig(bytes.NewReader(raw))
		assert.NoError(t, err, base)
		pdf, err := os.ReadFile(filepath.Join(dir, base+".pdf"))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF")), base)
	}
}

func TestTruncationBadInput(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no out", []string{}, "--out is required"},
		{"unknown flag", []string{"--out", out, "--nope"}, "flag provided but not defined"},
		{"bad list", []string{"--out", out, "--hidden", "2,x"}, `"x" is not a positive integer`},
		{"zero size", []string{"--out", out, "--ks", "0"}, "not a positive integer"},
		{"negative seeds", []string{"--out", out, "--seeds", "-1"}, "--seeds must not be negative"},
		{"negative draws", []string{"--out", out, "--draws", "-2"}, "--draws must not be negative"},
		{"steps below k", []string{"--out", out, "--max-k", "10", "--steps", "10"}, "trajectories of 10 steps cannot show k up to 10"},
		{"extra argument", []string{"--out", out, "extra"}, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"truncation"}, tc.args...)...)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.want)
		})
	}
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written on bad input")
}
