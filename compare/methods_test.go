package compare

import (
	"slices"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
)

// Every method of the dense family has an engine in denseGate, and nothing
// else has one.
func TestDenseGateCoversRegistry(t *testing.T) {
	n := 0
	for _, m := range arch.Methods() {
		_, ok := denseGate[m]
		assert.Equal(t, m.Dense(), ok, "%s in denseGate", m)
		if ok {
			n++
		}
	}
	assert.Len(t, denseGate, n)
}

// AppliesTo, derived from the registry, reaches exactly the built-in methods
// whose engines make each mistake: forward.Defect's and backward.Defect's
// engines.
func TestInjectionAppliesToEveryMethod(t *testing.T) {
	want := map[Injection][]arch.Method{
		InjectDropRecurrentTerm: {arch.MethodCCN, arch.MethodColumnar, arch.MethodConstructive,
			arch.MethodRTRL, arch.MethodSnAp1, arch.MethodRTU, arch.MethodRTULinear},
		InjectOffByOneWindow:       {arch.MethodTBPTT},
		InjectDropForgetPath:       {arch.MethodTBPTT},
		InjectPreviousStepFeatures: {arch.MethodCCN, arch.MethodConstructive, arch.MethodLinear},
		InjectRestartStats:         {arch.MethodCCN, arch.MethodConstructive},
		InjectRestartState:         {arch.MethodCCN, arch.MethodConstructive},
		InjectAsymmetricUORO:       nil,
		InjectDropPhaseCoupling:    {arch.MethodRTU, arch.MethodRTULinear},
		InjectDropNormScale:        {arch.MethodRTU, arch.MethodRTULinear},
		InjectNone:                 nil,
	}
	for _, in := range Injections() {
		assert.Contains(t, want, in, "the table names every injection")
	}
	builtin := []arch.Method{arch.MethodCCN, arch.MethodColumnar, arch.MethodConstructive, arch.MethodTBPTT,
		arch.MethodRTRL, arch.MethodSnAp1, arch.MethodUORO, arch.MethodLinear, arch.MethodRTU, arch.MethodRTULinear}
	for in, ms := range want {
		for _, m := range append(builtin, "unknown") {
			assert.Equal(t, slices.Contains(ms, m), in.AppliesTo(m), "%q applies to %s", in, m)
		}
	}
}
