package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// TestDecodeSummary: a summary.json is a run file. Its config object is read
// (the rest ignored), and the zeros it stores for the settings of other
// methods set nothing, for every method; a zero of a setting that applies is
// still refused, and so is a non-zero of one that does not.
func TestDecodeSummary(t *testing.T) {
	for _, m := range arch.Methods() {
		t.Run(string(m), func(t *testing.T) {
			r := RunConfig{Method: m, Seed: 7, Steps: 4000}.MustResolve()
			js, err := json.Marshal(Summary{Config: r.Config(), Seed: 7, FinalError: 0.5, Kernels: "simd"})
			require.NoError(t, err)
			c, keys, err := DecodeFile(js, true)
			require.NoError(t, err)
			got, err := c.Resolve()
			require.NoError(t, err)
			assert.Equal(t, r, got, "the summary's configuration resolves to itself")
			for _, k := range keys {
				s, _ := Lookup(k)
				assert.True(t, s.Applies(m), "key %s of another method is dropped", k)
			}
		})
	}
	r := RunConfig{Method: arch.MethodCCN}.MustResolve()
	js, _ := json.Marshal(Summary{Config: r.Config()})
	var top map[string]any
	require.NoError(t, json.Unmarshal(js, &top))
	cfg := top["config"].(map[string]any)
	assert.Equal(t, 0.0, cfg["truncation"], "summaries store zeros of other methods' settings")
	for _, tt := range []struct {
		key string
		v   any
	}{{"steps", 0}, {"features", 0}, {"truncation", 5}} {
		bad := map[string]any{}
		for k, v := range cfg {
			bad[k] = v
		}
		bad[tt.key] = tt.v
		b, _ := json.Marshal(map[string]any{"config": bad, "final_error": 0.1})
		c, _, err := DecodeFile(b, true)
		if err == nil {
			_, err = c.Resolve()
		}
		var ce *ConfigError
		require.True(t, errors.As(err, &ce), "%s %v: %v", tt.key, tt.v, err)
		assert.Equal(t, tt.key, ce.Key)
	}
	// A file without a config object is read as settings.
	_, _, err := DecodeFile([]byte(`{"final_error": 0.1}`), true)
	assert.Error(t, err)
}

func TestNumericsID(t *testing.T) {
	for _, tt := range []struct {
		kernels, numerics, want string
	}{
		{"simd", "simd/2", "simd/2"},
		{"scalar", "scalar", "scalar"},
		{"simd", "", "simd/1"},   // before the numerics field
		{"scalar", "", "scalar"}, // before the numerics field
		{"", "", "scalar"},       // before the kernels field: the scalar path only
	} {
		assert.Equal(t, tt.want, Summary{Kernels: tt.kernels, Numerics: tt.numerics}.NumericsID(), "%+v", tt)
	}
	s := newSummary(short.Config())
	assert.Equal(t, lanes.Numerics(), s.NumericsID())
	assert.Equal(t, lanes.Path(), s.Kernels)
}

// A directory holding the same configuration computed by a build of other
// numerics is not taken for this build's run.
func TestRunRefusesOtherNumerics(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	s, err := Run(context.Background(), short, dir, Options{})
	require.NoError(t, err)
	s.Kernels, s.Numerics = "other", "other/9"
	b, err := json.Marshal(s)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, SummaryFile), b, 0o644))
	_, err = Run(context.Background(), short, dir, Options{})
	var other *OtherRunError
	require.True(t, errors.As(err, &other), "%v", err)
	assert.Equal(t, "numerics", other.Key)
	assert.Equal(t, "other/9", other.Stored)
	assert.Equal(t, lanes.Numerics(), other.Requested)
	s2, err := Run(context.Background(), short, dir, Options{Force: true})
	require.NoError(t, err)
	assert.Equal(t, lanes.Numerics(), s2.Numerics)
	assert.Equal(t, s.FinalError, s2.FinalError)
}
