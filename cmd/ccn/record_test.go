package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/env/minatar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRecordReplaysExactly: for every game, the recorded file read back as
// --env atari gives the live game's observations and cumulants exactly, its
// episode ends, and its returns up to the last episode end of the recording
// (after it the file wraps, the live game goes on).
func TestRecordReplaysExactly(t *testing.T) {
	const steps = 10_001 // an episode ends by the 10,000-step cap at the latest
	for _, name := range minatar.Names() {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), name+".pb")
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run([]string{"record", "--env", name, "--steps", strconv.Itoa(steps), "--seed", "4", "--out", out}, &stdout, &stderr), stderr.String())
			assert.Empty(t, stdout.String())
			assert.Empty(t, stderr.String())

			live, err := minatar.New(name, 4, minatar.Config{})
			require.NoError(t, err)
			file, err := atari.Open(out, atari.Gamma)
			require.NoError(t, err)
			defer file.Close()
			require.Equal(t, int64(steps), file.Records())
			assert.Equal(t, name, file.Name())

			type row struct {
				x    []float64
				c, g float64
				done bool
			}
			var a, b []row
			lastDone := -1
			for i := range steps {
				x, y := make([]float64, atari.Inputs), make([]float64, atari.Inputs)
				c, g := live.Next(x)
				a = append(a, row{x, c, g, live.Done()})
				c, g = file.Next(y)
				b = append(b, row{y, c, g, file.Done()})
				if live.Done() {
					lastDone = i
				}
			}
			require.Positive(t, lastDone, "at least one episode ends")
			for i := range steps {
				require.Equal(t, a[i].x, b[i].x, "step %d observation", i)
				require.Equal(t, a[i].c, b[i].c, "step %d cumulant", i)
				if i < steps-1 {
					require.Equal(t, a[i].done, b[i].done, "step %d done", i)
				}
				if i <= lastDone {
					require.Equal(t, a[i].g, b[i].g, "step %d return", i)
				}
			}
			assert.True(t, b[steps-1].done, "the wrap ends an episode")
		})
	}
}

func TestRecordBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown game", []string{"--env", "pong", "--steps", "10", "--out", filepath.Join(dir, "a.pb")}, "pong"},
		{"not a game", []string{"--env", "trace-patterning", "--steps", "10", "--out", filepath.Join(dir, "a.pb")}, "trace-patterning"},
		{"no steps", []string{"--env", "breakout", "--out", filepath.Join(dir, "a.pb")}, "--steps"},
		{"no out", []string{"--env", "breakout", "--steps", "10"}, "--out"},
		{"missing directory", []string{"--env", "breakout", "--steps", "10", "--out", filepath.Join(dir, "no", "a.pb")}, "not an existing directory"},
		{"out is a directory", []string{"--env", "breakout", "--steps", "10", "--out", dir}, "is a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, run(append([]string{"record"}, tc.args...), &stdout, &stderr))
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tc.want)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"))
			entries, _ := os.ReadDir(dir)
			assert.Empty(t, entries, "nothing written")
		})
	}
}

func TestEnvsListsEveryEnvironment(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"envs"}, &stdout, &stderr))
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 8)
	for i, want := range []string{"trace-patterning  12      0.9", "atari             275     0.98", "breakout          275     0.98",
		"freeway", "asterix", "seaquest", "space-invaders"} {
		assert.True(t, strings.HasPrefix(lines[i+1], want), "line %q", lines[i+1])
	}
}

// ccn record's default seed is ccn run's (0), so a recording made without
// --seed replays the stream a run without --seed learns on.
func TestRecordDefaultSeedIsRuns(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]string{
		"default.pb": {"record", "--env", "freeway", "--steps", "300", "--out", filepath.Join(dir, "default.pb")},
		"zero.pb":    {"record", "--env", "freeway", "--steps", "300", "--seed", "0", "--out", filepath.Join(dir, "zero.pb")},
		"one.pb":     {"record", "--env", "freeway", "--steps", "300", "--seed", "1", "--out", filepath.Join(dir, "one.pb")},
	}
	for _, args := range files {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		return b
	}
	assert.Equal(t, read("zero.pb"), read("default.pb"))
	assert.NotEqual(t, read("one.pb"), read("default.pb"), "the seed must change the recording for this test to mean anything")
}
