package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/env/minatar"
)

// ccn envs --stats prints minatar.Measure's numbers, one row per game.
func TestEnvsStats(t *testing.T) {
	code, stdout, stderr := runCLI("envs", "--stats", "--steps", "20000", "--seed", "7", "--window", "5000")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 2+len(minatar.Games))
	assert.Equal(t, "seed 7, 20000 steps per game, return variance over the final 5000 steps (the best constant's error)", lines[0])
	for i, g := range minatar.Names() {
		s, err := minatar.Measure(g, 7, 20000, 5000, minatar.Config{})
		require.NoError(t, err)
		f := strings.Fields(lines[2+i])
		require.Len(t, f, 11, lines[2+i])
		assert.Equal(t, []string{g, fmt.Sprint(s.Episodes), fmt.Sprint(s.Shortest), fmt.Sprintf("%.1f%%", 100*s.Short),
			fmt.Sprint(s.P10), fmt.Sprint(s.Median), fmt.Sprint(s.P90), fmt.Sprintf("%.4f", s.RewardPerStep),
			fmt.Sprintf("%.3f", s.ReturnMean), fmt.Sprintf("%.3f", s.ReturnStd), fmt.Sprintf("%.3f", s.WindowVariance)}, f)
	}
	code, stdout, stderr = runCLI("envs", "--stats", "--steps", "3000", "--env", "freeway")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "over the final 3000 steps", "the window is every step when fewer than the games' 500,000")
	assert.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), 3)
}

func TestEnvsStatsBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--steps", "10"}, "--steps applies to --stats only"},
		{[]string{"--seed", "1"}, "--seed applies to --stats only"},
		{[]string{"--stats", "--steps", "0"}, "--steps must be positive, got 0"},
		{[]string{"--stats", "--steps", "100", "--window", "101"}, "--window must lie in [1, --steps 100], got 101"},
		{[]string{"--stats", "--env", "pong"}, `--env: unknown game "pong"`},
		{[]string{"--stats", "--steps", "x"}, `invalid value "x" for flag --steps`},
	} {
		code, stdout, stderr := runCLI(append([]string{"envs"}, tc.args...)...)
		assert.Equal(t, 2, code, tc.args)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, tc.want)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	}
}
