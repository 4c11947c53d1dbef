package experiments_test

import (
	"slices"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/stretchr/testify/assert"
)

// The settings of one kind of method apply to the built-in methods of that
// kind, now that their For is derived from the registry: the networks'
// columns, the stage schedule of the networks with more than one stage, the
// dense LSTMs' settings, hidden units (and trace units), T-BPTT's window,
// and the normalization of the networks, the linear control and the RTUs.
func TestSettingsApplyByMethod(t *testing.T) {
	var (
		network = []string{"features", "features-per-stage", "epsilon", "norm-decay", "no-norm", "float32"}
		stages  = []string{"steps-per-stage", "stage-min", "stage-max", "stage-window", "stage-threshold", "stage-decay", "frozen-step-scale"}
		dense   = []string{"hidden", "no-out-bias", "fan-in-init", "full-output-step"}
	)
	want := map[arch.Method][]string{
		arch.MethodCCN:          slices.Concat(network, stages),
		arch.MethodConstructive: slices.Concat(network, stages),
		arch.MethodColumnar:     network,
		arch.MethodTBPTT:        slices.Concat(dense, []string{"truncation", "float32"}),
		arch.MethodRTRL:         dense,
		arch.MethodSnAp1:        dense,
		arch.MethodUORO:         dense,
		arch.MethodLinear:       {"epsilon", "norm-decay", "no-norm"},
		arch.MethodRTU:          {"hidden", "full-output-step", "epsilon", "norm-decay", "no-norm"},
		arch.MethodRTULinear:    {"hidden", "full-output-step", "epsilon", "norm-decay", "no-norm"},
	}
	for m, keys := range want {
		for _, s := range experiments.Settings {
			if s.For == nil {
				continue
			}
			assert.Equal(t, slices.Contains(keys, s.Key), s.Applies(m), "%s applies to %s", s.Key, m)
		}
	}
}
