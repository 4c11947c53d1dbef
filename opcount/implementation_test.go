package opcount

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/arch"
)

// Implementation counts the output bias b_out of the dense methods (one
// operation, y += b_out) unless NoOutBias, and never that of the networks,
// whose count does not depend on it.
func TestImplementationOutBias(t *testing.T) {
	for _, c := range []Config{
		{Method: arch.MethodTBPTT, Features: 4, Inputs: 12, Truncation: 15},
		{Method: arch.MethodRTRL, Features: 3, Inputs: 12},
		{Method: arch.MethodSnAp1, Features: 6, Inputs: 12},
		{Method: arch.MethodUORO, Features: 7, Inputs: 12},
	} {
		with, ok := c.Implementation()
		assert.True(t, ok, "%+v", c)
		c.NoOutBias = true
		without, ok := c.Implementation()
		assert.True(t, ok, "%+v", c)
		assert.Equal(t, without+1, with, "%+v", c)
		assert.True(t, c.Dense(), "%+v", c)
	}
	// T-BPTT 15:4 (backward.Ops): F = 556, S = 612, E = 132, F + 15·S + 14·E + 1.
	n, _ := Config{Method: arch.MethodTBPTT, Features: 4, Inputs: 12, Truncation: 15}.Implementation()
	assert.Equal(t, 556+15*612+14*132+1, n)

	for _, c := range []Config{
		{Method: arch.MethodColumnar, Features: 10, Inputs: 12},
		{Method: arch.MethodCCN, Features: 16, Inputs: 12, PerStage: 4},
		{Method: arch.MethodConstructive, Features: 5, Inputs: 12},
	} {
		a, ok := c.Implementation()
		assert.True(t, ok, "%+v", c)
		c.NoOutBias = true
		b, _ := c.Implementation()
		assert.Equal(t, a, b, "%+v", c)
		assert.False(t, c.Dense(), "%+v", c)
	}
	for _, c := range []Config{
		{Method: arch.MethodTBPTT, Features: 4, Inputs: 12},
		{Method: arch.MethodCCN, Features: 8, Inputs: 12},
		{Method: arch.MethodSnAp1, Features: 0, Inputs: 12},
		{Method: "lstm", Features: 2, Inputs: 12},
	} {
		_, ok := c.Implementation()
		assert.False(t, ok, "%+v has no count", c)
	}
}

// The linear control costs the normalization (12 operations) and a multiply
// and an add per input: 14·275 = 3,850 on the Atari inputs.
func TestImplementationLinear(t *testing.T) {
	n, ok := Config{Method: arch.MethodLinear, Inputs: 275}.Implementation()
	assert.True(t, ok)
	assert.Equal(t, 14*275, n)
	assert.False(t, Config{Method: arch.MethodLinear}.Dense())
}

// Every method of the registry answers both count questions: an
// implementation count (Ops) for a size in range, and the paper's count
// exactly when its entry says the paper's compute model covers it. A
// built-in method whose count this package does not attach fails here.
func TestEveryMethodCounted(t *testing.T) {
	for _, m := range arch.Methods() {
		info, _ := arch.Info(m)
		if !assert.NotNil(t, info.Ops, "%s has no implementation count", m) {
			continue
		}
		c := Config{Method: m, Inputs: 12, Features: 4, PerStage: 2, Truncation: 3}
		n, ok := c.Implementation()
		assert.True(t, ok, "%s has no count", m)
		assert.Positive(t, n, "%s", m)
		assert.Equal(t, info.PaperModel, info.PaperOps != nil, "%s: PaperModel and PaperOps", m)
		if info.PaperModel {
			assert.Positive(t, c.Ops(), "%s", m)
		}
		for _, z := range info.Sizes { // every size it takes is needed
			low := c
			switch z {
			case arch.SizeTruncation:
				low.Truncation = 0
			case arch.SizePerStage:
				low.PerStage = 0
			default:
				low.Features = 0
			}
			_, ok := low.Implementation()
			assert.False(t, ok, "%s counts without %s", m, z)
		}
	}
}

// Attaching a count twice, or to a method that is not built in, panics.
func TestCountBuiltinPanics(t *testing.T) {
	one := func(arch.Spec) (int, bool) { return 1, true }
	assert.PanicsWithValue(t, "arch: CountBuiltin: ccn already counted", func() { arch.CountBuiltin(arch.MethodCCN, one, one) })
	assert.PanicsWithValue(t, "arch: CountBuiltin: lstm is not a built-in method", func() { arch.CountBuiltin("lstm", one, nil) })
}
