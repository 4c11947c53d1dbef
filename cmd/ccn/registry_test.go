package main

import (
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/opcount"
	"github.com/ccn-go/ccn/plots"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toy is a learner of its own kind, y = w·x + b: an arch.Engine whose Grad
// is ∂y/∂(w, b) = (x, 1). It stands for the engine file of a new learner.
type toy struct{ x, p []float64 }

func newToy(inputs int) *toy { return &toy{x: make([]float64, inputs), p: make([]float64, inputs+1)} }

func (l *toy) Step(x []float64) float64 {
	copy(l.x, x)
	y := l.p[len(x)]
	for i, v := range x {
		y += l.p[i] * v
	}
	return y
}

func (l *toy) Grad(dst []float64) {
	copy(dst, l.x)
	dst[len(l.x)] = 1
}

func (l *toy) Params() []float64 { return l.p }
func (l *toy) NumParams() int    { return len(l.p) }

// registerToy adds the toy learner to the registry of methods: its one
// entry. It returns the function that removes it again.
func registerToy() (unregister func()) {
	return arch.Register(arch.MethodInfo{
		Method: "toy",
		Family: arch.FamilyOther,
		Label:  "Toy",
		Color:  color.RGBA{R: 0x99, G: 0x33, B: 0x66, A: 0xFF},
		Gate:   arch.GateExempt,
		Exempt: "no autodiff reference for it",
		New: func(s arch.Spec) (arch.Engine, arch.Head) {
			l := newToy(s.Inputs)
			return l, arch.Head{Start: 0, End: l.NumParams(), Features: s.Inputs}
		},
		// Per step: the prediction's multiply-adds, and the gradient's copy.
		Ops: func(s arch.Spec) (int, bool) { return 3*s.Inputs + 1, true },
	})
}

// A learner added with one registry entry is a method of ccn run (built,
// let through the gate as exempt, learned and written), of ccn budget
// (counted) and of the figures (coloured); without the entry it is none.
func TestRegisteredLearnerEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--method", "toy", "--steps", "300", "--window", "100", "--log-every", "100", "--out", out}
	code, _, stderr := runCLI(args...)
	require.Equal(t, 2, code, "an unregistered method is bad input")
	assert.Contains(t, stderr, "toy")

	unregister := registerToy()
	defer unregister()
	assert.Contains(t, arch.Methods(), arch.Method("toy"))

	code, _, stderr = runCLI(args...) // the gate runs: toy is exempt
	require.Equal(t, 0, code, stderr)
	var s struct {
		Config map[string]any `json:"config"`
		Steps  int            `json:"steps"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Equal(t, "toy", s.Config["method"])
	assert.Equal(t, 300, s.Steps)

	code, _, stderr = runCLI("run", "--method", "toy", "--steps", "300", "--inject", "drop-recurrent-term", "--out", filepath.Join(t.TempDir(), "x"))
	assert.Equal(t, 2, code, "no injection changes the toy's engine")
	assert.Contains(t, stderr, "does not change the engine of method toy")

	code, stdout, stderr := runCLI("budget", "--method", "toy", "--inputs", "7")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, regexp.MustCompile(`implementation ops/step\s+22\n`), stdout)
	assert.Regexp(t, regexp.MustCompile(`paper ops/step\s+- `), stdout)
	code, _, stderr = runCLI("budget", "--method", "toy", "--hidden", "3")
	assert.Equal(t, 2, code, "the entry has no sizes")
	assert.Contains(t, stderr, "method toy takes --inputs only, not --hidden")
	n, ok := opcount.Config{Method: "toy", Inputs: 7}.Implementation()
	assert.True(t, ok)
	assert.Equal(t, 22, n)

	c, err := plots.MethodColor("toy")
	require.NoError(t, err)
	assert.Equal(t, color.RGBA{R: 0x99, G: 0x33, B: 0x66, A: 0xFF}, c)
}
