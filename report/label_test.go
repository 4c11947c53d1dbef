package report

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/truncation"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The legend text of a method is its label in the registry of methods, and
// the sizes its family has.
func TestMethodLabel(t *testing.T) {
	unregister := arch.Register(arch.MethodInfo{Method: "toy", Family: arch.FamilyOther, Label: "Toy",
		Color: color.RGBA{R: 1, A: 0xFF}, Gate: arch.GateExempt, Exempt: "a test",
		New: func(arch.Spec) (arch.Engine, arch.Head) { return nil, arch.Head{} },
		Ops: func(arch.Spec) (int, bool) { return 1, true }})
	defer unregister()
	tests := []struct {
		c    experiments.RunConfig
		want string
	}{
		{experiments.RunConfig{Method: arch.MethodCCN, Features: 16}, "CCN"},
		{experiments.RunConfig{Method: arch.MethodColumnar}, "Columnar"},
		{experiments.RunConfig{Method: arch.MethodConstructive}, "Constructive"},
		{experiments.RunConfig{Method: arch.MethodTBPTT, Truncation: 8, Hidden: 5}, "T-BPTT k=8, H=5"},
		{experiments.RunConfig{Method: arch.MethodRTRL, Hidden: 4}, "RTRL H=4"},
		{experiments.RunConfig{Method: arch.MethodSnAp1, Hidden: 4}, "SnAp-1 H=4"},
		{experiments.RunConfig{Method: arch.MethodUORO, Hidden: 4}, "UORO H=4"},
		{experiments.RunConfig{Method: arch.MethodLinear}, "Linear (no memory)"},
		{experiments.RunConfig{Method: arch.MethodRTU, Hidden: 3}, "RTU n=3"},
		{experiments.RunConfig{Method: arch.MethodRTULinear, Hidden: 3}, "linear RTU n=3"},
		{experiments.RunConfig{Method: "toy"}, "Toy"},
		{experiments.RunConfig{Method: "gru"}, "gru"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, methodLabel(tc.c), "%s", tc.c.Method)
	}
}

// A method registered with one entry flows through the figures without a
// change to this package or to plots: its legend and short legend, its
// operation count, its Atari rows' method and label, its estimator label and
// its colour all come from the entry.
func TestRegisteredMethodInFigures(t *testing.T) {
	toy := color.RGBA{R: 0x12, G: 0x34, B: 0x56, A: 0xFF}
	unregister := arch.Register(arch.MethodInfo{Method: "toy", Family: arch.FamilyOther, Label: "Toy",
		Legend: func(s arch.Spec) string { return fmt.Sprintf("Toy (%d steps per stage)", s.StepsPerStage) },
		Short:  func(arch.Spec) string { return "T" }, Stochastic: true,
		Color: toy, Gate: arch.GateExempt, Exempt: "a test",
		New: func(arch.Spec) (arch.Engine, arch.Head) { return nil, arch.Head{} },
		Ops: func(s arch.Spec) (int, bool) { return 5 * s.Inputs, true }})
	defer unregister()

	c := experiments.RunConfig{Method: "toy", Env: "trace-patterning"}
	assert.Equal(t, "Toy (0 steps per stage)", methodLabel(c))
	assert.Equal(t, "T", shortLabel(c))
	n, err := opsPerStep(c)
	require.NoError(t, err)
	assert.Equal(t, 5*12, n, "five operations per input of trace patterning's 12 (the paper's |x|)")
	m, label := rowMethod("toy-large")
	assert.Equal(t, "toy", m)
	assert.Equal(t, "Toy", label)
	assert.Equal(t, "Toy ± s.d.", estimatorLabel([]truncation.BiasPoint{{Method: "toy"}}))
	got, err := plots.MethodColor(m)
	require.NoError(t, err)
	assert.Equal(t, toy, got)

	unregister()
	m, label = rowMethod("toy-large")
	assert.Equal(t, "toy-large", m, "without its entry a group is its own name")
	assert.Equal(t, "toy-large", label)
	_, err = plots.MethodColor(m)
	assert.Error(t, err, "and has no colour")
	_, err = opsPerStep(c)
	assert.Error(t, err, "nor a run configuration")
}

// The Atari rows' methods: the longest method name that begins the group's.
func TestRowMethod(t *testing.T) {
	for family, want := range map[string][2]string{
		"ccn": {"ccn", "CCN"}, "ccn-no-norm": {"ccn", "CCN"}, "tbptt/5:7": {"tbptt", "T-BPTT"},
		"columnar": {"columnar", "Columnar"}, "linear": {"linear", "Linear (no memory)"},
		"rtu-linear": {"rtu-linear", "linear RTU"}, "rtu": {"rtu", "RTU"}, "ccnx": {"ccnx", "ccnx"},
	} {
		m, label := rowMethod(family)
		assert.Equal(t, want, [2]string{m, label}, family)
	}
}
