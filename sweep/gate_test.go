package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/experiments"
)

// A pool without its own Run gates its runs as ccn sweep does: by default
// with compare.RunGate, once per architecture; with a Gate of the caller's,
// whose refusal fails the runs before anything is written; not at all with
// NoGate.
func TestPoolGates(t *testing.T) {
	assert.Equal(t, reflect.ValueOf(compare.RunGate).Pointer(), reflect.ValueOf(defaultGate).Pointer(),
		"the default gate is the CLI's")
	s, err := Load("testdata/tiny.yaml")
	require.NoError(t, err)
	s.Scales["test"] = Scale{Steps: 200, SweepSeeds: Seeds{0, 1}, FinalSeeds: Seeds{0},
		Set: map[string]any{"window": 100, "log-every": 100}}
	p, err := s.Plan("test")
	require.NoError(t, err)
	const architectures = 3 // ccn, tbptt, columnar; the step sizes share one

	// gate(c, err) records in c the architectures it is called with and
	// returns err.
	type calls struct {
		mu   sync.Mutex
		keys []string
	}
	gate := func(c *calls, err error) func(experiments.Resolved) error {
		return func(r experiments.Resolved) error {
			c.mu.Lock()
			defer c.mu.Unlock()
			c.keys = append(c.keys, architectureKey(r))
			return err
		}
	}
	summaries := func(out string) int {
		m, err := filepath.Glob(filepath.Join(out, RunsDir, "*", experiments.SummaryFile))
		require.NoError(t, err)
		return len(m)
	}

	t.Run("default", func(t *testing.T) {
		var c calls
		saved := defaultGate
		defaultGate = gate(&c, nil)
		t.Cleanup(func() { defaultGate = saved })
		out := t.TempDir()
		rep, err := Pool{Workers: 2}.Execute(context.Background(), p, out)
		require.NoError(t, err)
		assert.Equal(t, rep.Ran, summaries(out))
		assert.Len(t, c.keys, architectures, "once per architecture: %v", c.keys)
		assert.ElementsMatch(t, uniqStrings(c.keys), c.keys)
	})
	t.Run("refusing gate", func(t *testing.T) {
		var c calls
		refused := errors.New("sweep test: gate refuses")
		out := t.TempDir()
		rep, err := Pool{Workers: 2, MaxAttempts: 1, Gate: gate(&c, refused)}.Execute(context.Background(), p, out)
		require.NoError(t, err)
		assert.Positive(t, rep.Failed)
		assert.Zero(t, summaries(out), "nothing complete behind a refusing gate")
		failed, err := filepath.Glob(filepath.Join(out, RunsDir, "*", FailedFile))
		require.NoError(t, err)
		require.NotEmpty(t, failed)
		b, err := os.ReadFile(failed[0])
		require.NoError(t, err)
		assert.Contains(t, string(b), refused.Error())
		assert.Len(t, c.keys, architectures)
	})
	t.Run("no gate", func(t *testing.T) {
		var c calls
		out := t.TempDir()
		rep, err := Pool{Workers: 2, NoGate: true, Gate: gate(&c, errors.New("unused"))}.Execute(context.Background(), p, out)
		require.NoError(t, err)
		assert.Positive(t, rep.Ran)
		assert.Equal(t, rep.Ran, summaries(out))
		assert.Empty(t, c.keys)
	})
}

func uniqStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
