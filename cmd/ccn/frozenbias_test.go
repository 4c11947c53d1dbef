package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ccn frozen-bias measures every frozen stage at every measurement after
// the first stage change: with stages every 500 steps and a measurement
// every 500, the network at 1000, 1500 and 2000 steps has 1, 2 and 3 frozen
// stages (a stage is added at the step after its predecessor's 500th), so 6
// rows; each relative error is positive (later columns read the frozen
// features) and each cosine a cosine.
func TestFrozenBiasRows(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"frozen-bias", "--method", "ccn", "--steps", "2000", "--steps-per-stage", "500", "--every", "500",
		"--length", "8", "--frozen-step-scale", "0.1", "--seed", "2"}
	require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
	var frozen []string
	for _, line := range strings.Split(stdout.String(), "\n")[2:] {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		require.Len(t, f, 5, line)
		frozen = append(frozen, f[0]+":"+f[2])
		rel, err := strconv.ParseFloat(f[3], 64)
		require.NoError(t, err)
		cos, err := strconv.ParseFloat(f[4], 64)
		require.NoError(t, err)
		assert.Positive(t, rel, line)
		assert.LessOrEqual(t, cos, 1.0, line)
		assert.GreaterOrEqual(t, cos, -1.0, line)
	}
	assert.Equal(t, []string{"1000:0", "1500:0", "1500:1", "2000:0", "2000:1", "2000:2"}, frozen)
}

func TestFrozenBiasBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--method", "columnar"}, "--method columnar has no frozen stages"},
		{[]string{"--method", "tbptt"}, "--method tbptt has no frozen stages"},
		{[]string{"--length", "1"}, "--length must be at least 2, got 1"},
		{[]string{"--every", "0"}, "--every must be at least 1, got 0"},
		{[]string{"--frozen-step-scale", "2"}, "frozen-step-scale 2 must lie in [0, 1]"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 2, run(append([]string{"frozen-bias"}, tc.args...), &stdout, &stderr))
			assert.Contains(t, stderr.String(), tc.msg)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line")
			assert.Empty(t, stdout.String())
		})
	}
}
