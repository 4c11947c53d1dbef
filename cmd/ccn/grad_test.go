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

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func flatten(g gradBlock) []float64 {
	var v []float64
	for _, r := range g.WIH {
		v = append(v, r...)
	}
	for _, r := range g.WHH {
		v = append(v, r...)
	}
	v = append(v, g.B...)
	v = append(append(v, g.WOut...), g.BOut)
	return v
}

// The sample case of docs/cli.md ("ccn grad"): every engine that serves a truncation
// answers it, and they agree to 1e-10.
func TestGradSampleCaseEnginesAgree(t *testing.T) {
	outs := map[string]gradOutput{}
	for _, engine := range []string{"reference", "backward"} {
		code, stdout, stderr := runCLI("grad", "--case", "testdata/case.json", "--engine", engine)
		require.Equal(t, 0, code, stderr)
		var o gradOutput
		require.NoError(t, json.Unmarshal([]byte(stdout), &o))
		assert.Equal(t, engine, o.Engine)
		assert.Len(t, o.Y, 6)
		require.Len(t, o.Grad.WIH, 8)
		assert.Len(t, o.Grad.WIH[0], 3)
		require.Len(t, o.Grad.WHH, 8)
		assert.Len(t, o.Grad.WHH[0], 2)
		assert.Len(t, o.Grad.B, 8)
		assert.Len(t, o.Grad.WOut, 2)
		outs[engine] = o
	}
	assert.InDeltaSlice(t, outs["reference"].Y, outs["backward"].Y, 1e-12)
	assert.InDeltaSlice(t, flatten(outs["reference"].Grad), flatten(outs["backward"].Grad), 1e-10)
	// Truncation 3 < T = 6 differs from the full gradient: forward refuses it.
	code, stdout, stderr := runCLI("grad", "--case", "testdata/case.json", "--engine", "forward")
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "truncation")
}

// With truncation 0 (full BPTT) the forward engine joins, and truncation 3
// really does change the gradient.
func TestGradFullBPTTAllEngines(t *testing.T) {
	data, err := os.ReadFile("testdata/case.json")
	require.NoError(t, err)
	full := filepath.Join(t.TempDir(), "full.json")
	require.NoError(t, os.WriteFile(full, bytes.Replace(data, []byte(`"truncation": 3`), []byte(`"truncation": 0`), 1), 0o644))
	grads := map[string][]float64{}
	for _, engine := range []string{"reference", "forward", "backward"} {
		code, stdout, stderr := runCLI("grad", "--case", full, "--engine", engine)
		require.Equal(t, 0, code, stderr)
		var o gradOutput
		require.NoError(t, json.Unmarshal([]byte(stdout), &o))
		grads[engine] = flatten(o.Grad)
	}
	assert.InDeltaSlice(t, grads["reference"], grads["forward"], 1e-10)
	assert.InDeltaSlice(t, grads["reference"], grads["backward"], 1e-10)

	_, stdout, _ := runCLI("grad", "--case", "testdata/case.json", "--engine", "reference")
	var trunc gradOutput
	require.NoError(t, json.Unmarshal([]byte(stdout), &trunc))
	diff := 0.0
	for i, v := range flatten(trunc.Grad) {
		diff = max(diff, abs(v-grads["reference"][i]))
	}
	assert.Greater(t, diff, 1e-6, "truncation 3 should change the sample's gradient")

	// --truncation overrides the case's k: the sample case itself serves
	// every engine at k = 0, and the backward engine at k = 3 from a k = 0 file.
	for _, engine := range []string{"reference", "forward", "backward"} {
		code, stdout, stderr := runCLI("grad", "--case", "testdata/case.json", "--engine", engine, "--truncation", "0")
		require.Equal(t, 0, code, stderr)
		var o gradOutput
		require.NoError(t, json.Unmarshal([]byte(stdout), &o))
		assert.Equal(t, grads[engine], flatten(o.Grad), "%s: --truncation 0 is the k = 0 file", engine)
	}
	code, stdout, stderr := runCLI("grad", "--case", full, "--engine", "backward", "--truncation", "3")
	require.Equal(t, 0, code, stderr)
	var o gradOutput
	require.NoError(t, json.Unmarshal([]byte(stdout), &o))
	assert.InDeltaSlice(t, flatten(trunc.Grad), flatten(o.Grad), 1e-10, "--truncation 3 is the k = 3 file")
	code, _, stderr = runCLI("grad", "--case", full, "--truncation", "-1")
	assert.Equal(t, 2, code)
	assert.Equal(t, "ccn grad: --truncation must be 0 or more, got -1\n", stderr)
}

// An optional b_out shifts every prediction by b_out and leaves the other
// gradients unchanged; its own gradient is 1. The sample case has no b_out
// (it means 0), so it is the authors' head.
func TestGradOutputBias(t *testing.T) {
	data, err := os.ReadFile("testdata/case.json")
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	assert.NotContains(t, m, "b_out", "the sample case omits b_out")
	m["b_out"] = 0.25
	m["truncation"] = 0
	b, err := json.Marshal(m)
	require.NoError(t, err)
	biased := filepath.Join(t.TempDir(), "biased.json")
	require.NoError(t, os.WriteFile(biased, b, 0o644))
	delete(m, "b_out")
	b, err = json.Marshal(m)
	require.NoError(t, err)
	plain := filepath.Join(t.TempDir(), "plain.json")
	require.NoError(t, os.WriteFile(plain, b, 0o644))

	read := func(path, engine string) gradOutput {
		code, stdout, stderr := runCLI("grad", "--case", path, "--engine", engine)
		require.Equal(t, 0, code, stderr)
		var o gradOutput
		require.NoError(t, json.Unmarshal([]byte(stdout), &o))
		return o
	}
	base := read(plain, "reference")
	for _, engine := range []string{"reference", "forward", "backward"} {
		o := read(biased, engine)
		require.Len(t, o.Y, len(base.Y))
		for i := range o.Y {
			assert.InDelta(t, base.Y[i]+0.25, o.Y[i], 1e-12, "%s y_%d", engine, i+1)
		}
		assert.InDelta(t, 1, o.Grad.BOut, 1e-15, engine)
		assert.InDeltaSlice(t, flatten(base.Grad), flatten(o.Grad), 1e-10, engine)
	}
	assert.Equal(t, 1.0, base.Grad.BOut, "an absent b_out still has gradient 1")
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestGradBadInput(t *testing.T) {
	good, err := os.ReadFile("testdata/case.json")
	require.NoError(t, err)
	var base map[string]any
	require.NoError(t, json.Unmarshal(good, &base))
	edit := func(f func(m map[string]any)) string {
		m := map[string]any{}
		b, _ := json.Marshal(base)
		_ = json.Unmarshal(b, &m)
		f(m)
		out, _ := json.Marshal(m)
		return string(out)
	}
	tests := []struct {
		name, content, engine, want string
	}{
		{"malformed", `{"hidden": 2,`, "reference", "malformed JSON"},
		{"missing W_hh", edit(func(m map[string]any) { delete(m, "W_hh") }), "reference", `"W_hh"`},
		{"missing hidden", edit(func(m map[string]any) { delete(m, "hidden") }), "reference", `"hidden"`},
		{"wrong rows", edit(func(m map[string]any) { m["b"] = []float64{1, 2} }), "reference", `"b"`},
		{"wrong cols", edit(func(m map[string]any) { m["W_ih"].([]any)[2] = []float64{1} }), "reference", `"W_ih" row 2`},
		{"ragged x", edit(func(m map[string]any) { m["x"].([]any)[1] = []float64{1} }), "reference", `"x" row 1`},
		{"inf", strings.Replace(string(good), "0.497", "1e999", 1), "reference", "x"},
		{"negative k", edit(func(m map[string]any) { m["truncation"] = -1 }), "reference", `"truncation"`},
		{"empty x", edit(func(m map[string]any) { m["x"] = []any{} }), "backward", `"x" is empty`},
		{"zero hidden", edit(func(m map[string]any) { m["hidden"] = 0 }), "reference", `"hidden"`},
		{"unknown engine", string(good), "magic", "unknown engine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "case.json")
			require.NoError(t, os.WriteFile(p, []byte(tt.content), 0o644))
			code, stdout, stderr := runCLI("grad", "--case", p, "--engine", tt.engine)
			assert.Equal(t, 2, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tt.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
	code, stdout, stderr := runCLI("grad", "--case", filepath.Join(t.TempDir(), "absent.json"))
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "read case")
}

// Keys the case format does not know are ignored, so users can annotate cases.
func TestGradIgnoresUnknownKeys(t *testing.T) {
	data, err := os.ReadFile("testdata/case.json")
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "annotated.json")
	annotated := bytes.Replace(data, []byte("{"), []byte(`{"comment": "from my framework", "seed": 3,`), 1)
	require.NoError(t, os.WriteFile(p, annotated, 0o644))
	_, plain, _ := runCLI("grad", "--case", "testdata/case.json", "--engine", "backward")
	code, stdout, stderr := runCLI("grad", "--case", p, "--engine", "backward")
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, plain, stdout)
}
