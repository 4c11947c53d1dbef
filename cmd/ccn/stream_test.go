package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/experiments"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readStream runs ccn stream with args and parses its CSV output.
func readStream(t *testing.T, args ...string) (header []string, rows [][]float64) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"stream"}, args...), &stdout, &stderr)
	require.Equal(t, 0, code, "stderr: %s", stderr.String())
	assert.Empty(t, stderr.String())
	records, err := csv.NewReader(&stdout).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, records)
	for _, rec := range records[1:] {
		row := make([]float64, len(rec))
		for i, f := range rec {
			row[i], err = strconv.ParseFloat(f, 64)
			require.NoError(t, err, "field %q", f)
		}
		rows = append(rows, row)
	}
	return records[0], rows
}

func TestStreamCSV(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		inputs int
		gamma  float64
	}{
		{"paper", []string{"--steps", "3000", "--seed", "7"}, 12, 0.9},
		{"custom", []string{"--env", "trace-patterning", "--steps", "3000", "--seed", "2", "--isi-min", "3", "--isi-max", "5",
			"--iti-min", "6", "--iti-max", "9", "--distractors", "2", "--gamma", "0.8"}, 9, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			header, rows := readStream(t, tc.args...)
			// The trace patterning observation's names (docs/formats.md).
			want := []string{"t", "cs0", "cs1", "cs2", "cs3", "cs4", "cs5", "us"}
			for k := 1; k <= tc.inputs-7; k++ {
				want = append(want, fmt.Sprintf("d%d", k))
			}
			want = append(want, "cumulant", "return")
			require.Equal(t, want, header)
			require.Len(t, rows, 3000)

			cumulant, ret := len(header)-2, len(header)-1
			us := 0
			for i, row := range rows {
				require.Len(t, row, len(header))
				assert.Equal(t, float64(i), row[0], "t counts from 0")
				assert.Equal(t, row[1+6], row[cumulant], "cumulant is x6, the US")
				if row[cumulant] == 1 {
					us++
				}
				if i+1 < len(rows) {
					next := rows[i+1]
					assert.InDelta(t, next[cumulant]+tc.gamma*next[ret], row[ret], 1e-12, "G_t = c_{t+1} + γ·G_{t+1} at t=%d", i)
				}
			}
			assert.Positive(t, us, "some US in the stream")
		})
	}
}

func TestStreamDeterministic(t *testing.T) {
	run1 := func(seed string) string {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, run([]string{"stream", "--steps", "500", "--seed", seed}, &stdout, &stderr))
		return stdout.String()
	}
	assert.Equal(t, run1("5"), run1("5"))
	assert.NotEqual(t, run1("5"), run1("6"))
}

func TestStreamBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // in the message
	}{
		{"unknown env", []string{"--env", "atari", "--steps", "10"}, "atari"},
		{"missing steps", nil, "--steps"},
		{"zero steps", []string{"--steps", "0"}, "--steps"},
		{"negative steps", []string{"--steps", "-4"}, "--steps"},
		{"ISI min above max", []string{"--steps", "10", "--isi-min", "40"}, "--isi-min 40 is above isi-max 36"},
		{"ITI min above max", []string{"--steps", "10", "--iti-min", "9", "--iti-max", "8"}, "--iti-min 9 is below isi-max 36"},
		{"trials not separated", []string{"--steps", "10", "--isi-max", "90"}, "--isi-max 90 is above iti-min 80"},
		{"negative ISI", []string{"--steps", "10", "--isi-min", "-1"}, "--isi-min -1 must not be negative"},
		{"negative distractors", []string{"--steps", "10", "--distractors", "-1"}, "--distractors"},
		{"gamma one", []string{"--steps", "10", "--gamma", "1"}, "--gamma"},
		{"gamma zero", []string{"--steps", "10", "--gamma", "0"}, "--gamma"},
		{"unknown flag", []string{"--steps", "10", "--horizon", "3"}, "horizon"},
		{"stray argument", []string{"--steps", "10", "extra"}, "extra"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"stream"}, tc.args...), &stdout, &stderr)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tc.want)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		})
	}
}

// TestStreamEpisodic: a game's CSV has 275 inputs and a done column, and its
// returns follow G_t = c_{t+1} + γ·G_{t+1} within an episode, 0 on its last
// step (γ = 0.98 by default, --gamma overrides).
func TestStreamEpisodic(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		gamma float64
	}{
		{[]string{"--env", "space-invaders", "--steps", "2000", "--seed", "3"}, 0.98},
		{[]string{"--env", "asterix", "--steps", "2000", "--seed", "3", "--gamma", "0.5"}, 0.5},
	} {
		header, rows := readStream(t, tc.args...)
		require.Len(t, header, 1+275+3)
		assert.Equal(t, []string{"cumulant", "done", "return"}, header[276:])
		ends := 0
		for i, row := range rows {
			c, done, g := row[276], row[277], row[278]
			require.Equal(t, c, row[1+274], "the cumulant is the clipped reward input")
			if done == 1 {
				ends++
				require.Equal(t, 0.0, g, "row %d", i)
			} else if i+1 < len(rows) {
				require.InDelta(t, rows[i+1][276]+tc.gamma*rows[i+1][278], g, 1e-12, "row %d", i)
			}
		}
		assert.Positive(t, ends)
	}
}

func TestStreamAtariBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.pb")
	var o, e bytes.Buffer
	require.Equal(t, 0, run([]string{"record", "--env", "freeway", "--steps", "20", "--out", good}, &o, &e))
	b, err := os.ReadFile(good)
	require.NoError(t, err)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no stream", []string{"--env", "atari"}, "--stream"},
		{"missing file", []string{"--env", "atari", "--stream", filepath.Join(dir, "none.pb")}, "no such file"},
		{"empty file", []string{"--env", "atari", "--stream", write("empty.pb", nil)}, "no records"},
		{"truncated file", []string{"--env", "atari", "--stream", write("cut.pb", b[:len(b)/2])}, "truncated"},
		{"corrupt file", []string{"--env", "atari", "--stream", write("bad.pb", []byte("not a protobuf message"))}, "corrupt"},
		{"action 18", []string{"--env", "atari", "--stream", encoded(t, dir, "a18.pb", atari.Experience{Reading: make([]float32, 256), Action: 18})}, "action outside 0..17"},
		{"NaN reward", []string{"--env", "atari", "--stream", encoded(t, dir, "nan.pb", atari.Experience{Reading: make([]float32, 256), Reward: float32(math.NaN())})}, "non-finite reward"},
		{"100 readings", []string{"--env", "atari", "--stream", encoded(t, dir, "r100.pb", atari.Experience{Reading: make([]float32, 100)})}, "not 256 or 275"},
		{"stream for a game", []string{"--env", "breakout", "--stream", good}, "--stream"},
		{"trace option for a game", []string{"--env", "breakout", "--isi-min", "3"}, "--isi-min"},
		{"unknown game", []string{"--env", "pong"}, "pong"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, run(append([]string{"stream", "--steps", "5"}, tc.args...), &stdout, &stderr))
			assert.Empty(t, stdout.String())
			assert.Contains(t, stderr.String(), tc.want)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		})
	}
}

// A trace patterning setting of 0 is the paper's value in ccn stream as in
// ccn run (and in the summary.json a rerun reads): --isi-min 0 writes the
// stream of --isi-min 24 and of no flag at all.
func TestStreamZeroIsPaperValue(t *testing.T) {
	paper := env.DefaultTraceConfig()
	for _, tc := range []struct {
		key   string
		paper int
	}{
		{"isi-min", paper.ISIMin}, {"isi-max", paper.ISIMax}, {"iti-min", paper.ITIMin}, {"iti-max", paper.ITIMax}, {"distractors", paper.Distractors},
	} {
		t.Run(tc.key, func(t *testing.T) {
			base := []string{"--steps", "300", "--seed", "3"}
			_, none := readStream(t, base...)
			_, zero := readStream(t, append(base, "--"+tc.key, "0")...)
			_, explicit := readStream(t, append(base, "--"+tc.key, strconv.Itoa(tc.paper))...)
			assert.Equal(t, none, zero, "--%s 0", tc.key)
			assert.Equal(t, none, explicit, "--%s %d", tc.key, tc.paper)
		})
	}
}

// ccn stream without --seed writes the stream ccn run learns on without
// --seed.
func TestStreamDefaultSeedIsRuns(t *testing.T) {
	_, rows := readStream(t, "--steps", "400")
	e := experiments.RunConfig{}.MustResolve().NewEnv()
	x := make([]float64, e.ObservationSize())
	for i, row := range rows {
		c, g := e.Next(x)
		require.Equal(t, append(append([]float64{float64(i)}, x...), c, g), row, "step %d", i)
	}
	_, seeded := readStream(t, "--steps", "400", "--seed", "1")
	assert.NotEqual(t, rows, seeded, "the seed matters")
}

// encoded writes one record e to dir/name with the project's encoder (which
// does not check what it writes) and returns the path.
func encoded(t *testing.T, dir, name string, e atari.Experience) string {
	var buf bytes.Buffer
	enc := atari.NewEncoder(&buf, "", "")
	require.NoError(t, enc.Write(&e))
	require.NoError(t, enc.Close())
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, buf.Bytes(), 0o644))
	return p
}
