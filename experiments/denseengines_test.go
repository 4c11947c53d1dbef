package experiments

import (
	"fmt"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every method of the dense family has an engine in denseEngines, and it is
// that method's engine.
func TestDenseEnginesCoverRegistry(t *testing.T) {
	want := map[arch.Method]string{
		arch.MethodTBPTT: fmt.Sprintf("%T", (*backward.TBPTT)(nil)),
		arch.MethodRTRL:  fmt.Sprintf("%T", (*forward.DenseRTRL)(nil)),
		arch.MethodSnAp1: fmt.Sprintf("%T", (*forward.SnAp1)(nil)),
		arch.MethodUORO:  fmt.Sprintf("%T", (*forward.UORO)(nil)),
	}
	var dense []arch.Method
	for _, m := range arch.Methods() {
		if m.Dense() {
			dense = append(dense, m)
		}
	}
	assert.Len(t, denseEngines, len(dense), "denseEngines has an entry for a method outside the dense family")
	shape := arch.Dense{Hidden: 3, Inputs: 2, OutBias: true}
	for _, m := range dense {
		newEngine, ok := denseEngines[m]
		require.True(t, ok, "dense method %s has no engine in denseEngines", m)
		assert.Equal(t, want[m], fmt.Sprintf("%T", newEngine(shape, arch.Spec{Truncation: 2, Seed: 1})), string(m))
	}
}
