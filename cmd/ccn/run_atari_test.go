package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunPixelStreams: ccn run on a game and on its recording, with the
// pixel streams' defaults (γ 0.98, window 500,000 unless given), and every
// bad stream input exits 2 with one line and nothing on disk.
func TestRunPixelStreams(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "breakout.pb")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"record", "--env", "breakout", "--steps", "1500", "--out", rec}, &stdout, &stderr), stderr.String())

	for _, args := range [][]string{
		{"--env", "breakout", "--method", "constructive", "--features", "2"},
		{"--env", "atari", "--stream", rec, "--method", "columnar", "--features", "2"},
	} {
		out := filepath.Join(dir, args[1])
		stdout.Reset()
		stderr.Reset()
		require.Equal(t, 0, run(append([]string{"run", "--steps", "2000", "--log-every", "1000", "--no-gate", "--out", out}, args...), &stdout, &stderr), stderr.String())
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		require.NoError(t, err)
		var s struct {
			Config struct {
				Gamma  float64 `json:"gamma"`
				Window int     `json:"window"`
			} `json:"config"`
			ReturnVariance float64         `json:"return_variance"`
			Stream         json.RawMessage `json:"stream"`
		}
		require.NoError(t, json.Unmarshal(b, &s))
		assert.Equal(t, 0.98, s.Config.Gamma)
		assert.Equal(t, 500_000, s.Config.Window)
		assert.Positive(t, s.ReturnVariance)
		assert.Equal(t, args[1] == "atari", s.Stream != nil, string(s.Stream))
		if args[1] == "atari" {
			assert.Contains(t, stderr.String(), "1500 records")
		}
	}

	cut := filepath.Join(dir, "cut.pb")
	b, err := os.ReadFile(rec)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(cut, b[:len(b)/3], 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--env", "atari"}, "stream missing"},
		{[]string{"--env", "atari", "--stream", cut}, "truncated"},
		{[]string{"--env", "atari", "--stream", filepath.Join(dir, "none.pb")}, "no such file"},
		{[]string{"--env", "freeway", "--stream", rec}, "does not apply"},
		{[]string{"--env", "pong"}, "pong unknown"},
	} {
		out := filepath.Join(dir, "bad")
		stdout.Reset()
		stderr.Reset()
		assert.Equal(t, 2, run(append([]string{"run", "--steps", "10", "--out", out}, tc.args...), &stdout, &stderr), tc.args)
		assert.Empty(t, stdout.String())
		assert.Contains(t, stderr.String(), tc.want)
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
		assert.NoDirExists(t, out)
	}
}
