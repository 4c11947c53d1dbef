package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryStreamBuilds(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.pb")
	var buf bytes.Buffer
	enc := atari.NewEncoder(&buf, "", "")
	require.NoError(t, enc.Write(&atari.Experience{Reading: make([]float32, atari.FrameSize), Done: true}))
	require.NoError(t, enc.Close())
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))

	names := Names()
	assert.Equal(t, []string{"trace-patterning", "atari", "breakout", "freeway", "asterix", "seaquest", "space-invaders"}, names)
	for _, info := range All() {
		opt := Options{Seed: 1}
		if info.Stream {
			opt.Stream = path
		}
		e, err := New(info.Name, opt)
		require.NoError(t, err, info.Name)
		assert.Equal(t, info.Inputs, e.ObservationSize(), info.Name)
		if g, ok := e.(interface{ Gamma() float64 }); ok {
			assert.Equal(t, info.Gamma, g.Gamma(), info.Name)
		}
		_, episodic := e.(env.Episodic)
		assert.Equal(t, info.Episodic, episodic, info.Name)
		x := make([]float64, e.ObservationSize())
		e.Next(x)
		assert.NoError(t, Close(e))
		assert.NotEmpty(t, info.Description)
	}
	assert.Equal(t, 0.9, All()[0].Gamma)
	assert.Equal(t, 0.98, All()[2].Gamma)
	assert.Equal(t, 100_000, All()[0].Window)
	assert.Equal(t, 500_000, All()[1].Window)
}

func TestNewRefuses(t *testing.T) {
	_, err := New("pong", Options{})
	assert.ErrorIs(t, err, ErrUnknown)
	_, err = New("atari", Options{})
	assert.ErrorIs(t, err, ErrNoStream)
	_, err = New("breakout", Options{Stream: "x.pb"})
	assert.ErrorIs(t, err, ErrNoStream)
	e, err := New("atari", Options{Stream: filepath.Join(t.TempDir(), "none.pb")})
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Nil(t, e, "no non-nil interface around a nil file")
}
