package experiments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env/minatar"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnvDefaults(t *testing.T) {
	for _, tc := range []struct {
		env    string
		stream string
		gamma  float64
		window int
	}{
		{EnvTracePatterning, "", 0.9, 100_000},
		{"breakout", "", 0.98, 500_000},
		{"space-invaders", "", 0.98, 500_000},
		{"atari", "x.pb", 0.98, 500_000},
	} {
		r, err := RunConfig{Env: tc.env, Stream: tc.stream}.Resolve()
		require.NoError(t, err, tc.env)
		c := r.Config()
		assert.Equal(t, tc.gamma, c.Gamma, tc.env)
		assert.Equal(t, tc.window, c.Window, tc.env)
		assert.Equal(t, 275, RunConfig{Env: "freeway"}.MustResolve().Inputs())
	}
	for _, tc := range []struct {
		cfg  RunConfig
		key  string
		want string
	}{
		{RunConfig{Env: "pong"}, "env", "env pong unknown (want trace-patterning, atari, breakout"},
		{RunConfig{Env: "atari"}, "stream", "stream missing: env atari reads a recorded file"},
		{RunConfig{Env: "breakout", Stream: "x.pb"}, "stream", "stream x.pb does not apply to env breakout"},
		{RunConfig{Stream: "x.pb"}, "stream", "does not apply to env trace-patterning"},
	} {
		_, err := tc.cfg.Resolve()
		var ce *ConfigError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, tc.key, ce.Key)
		assert.Contains(t, ce.Problem, tc.want)
	}
}

// recordGame writes steps of a game in the ExperienceBuffer format.
func recordGame(t *testing.T, game string, steps int) string {
	g, err := minatar.New(game, 9, minatar.Config{})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), game+".pb")
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, minatar.Record(f, g, steps))
	require.NoError(t, f.Close())
	return path
}

func TestRunOnPixelStreams(t *testing.T) {
	path := recordGame(t, "space-invaders", 2000)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	for _, cfg := range []RunConfig{
		{Env: "asterix", Method: arch.MethodColumnar, Features: 2, Steps: 3000, Window: 1000, LogEvery: 1000},
		{Env: "atari", Stream: path, Method: arch.MethodTBPTT, Hidden: 2, Truncation: 3, Steps: 3000, Window: 1000, LogEvery: 1000},
	} {
		var progress bytes.Buffer
		s, err := Run(context.Background(), cfg.MustResolve(), filepath.Join(t.TempDir(), "run"), Options{Progress: &progress})
		require.NoError(t, err, cfg.Env)
		assert.Equal(t, 3000, s.Steps)
		assert.False(t, s.Diverged)
		assert.Positive(t, s.ReturnVariance)
		if cfg.Env == "atari" {
			require.NotNil(t, s.Stream)
			assert.Equal(t, StreamFile{Name: "space-invaders.pb", Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:]),
				Records: 2000, Episodes: s.Stream.Episodes}, *s.Stream)
			assert.Greater(t, s.Stream.Episodes, int64(1))
			assert.Contains(t, progress.String(), fmt.Sprintf("stream %s: 2000 records, %d episodes, 256-value readings, sha256 %x\n",
				path, s.Stream.Episodes, sum), "the recorded stream is reported")
		} else {
			assert.Nil(t, s.Stream)
			assert.NotContains(t, progress.String(), "stream ")
		}
	}
}

func TestRunRefusesBadStreamFile(t *testing.T) {
	good := recordGame(t, "freeway", 50)
	data, err := os.ReadFile(good)
	require.NoError(t, err)
	cut := filepath.Join(t.TempDir(), "cut.pb")
	require.NoError(t, os.WriteFile(cut, data[:len(data)-7], 0o644))
	for _, path := range []string{cut, filepath.Join(t.TempDir(), "none.pb")} {
		dir := filepath.Join(t.TempDir(), "run")
		_, err := Run(context.Background(), RunConfig{Env: "atari", Stream: path, Steps: 10}.MustResolve(), dir, Options{})
		var ce *ConfigError
		require.ErrorAs(t, err, &ce)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Equal(t, "stream", ce.Key)
		assert.NoDirExists(t, dir)
	}
}
