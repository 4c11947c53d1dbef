package report

import (
	"image/color"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/stretchr/testify/assert"
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
