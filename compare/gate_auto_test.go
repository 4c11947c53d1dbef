package compare

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/reference"
)

// The gate of a run whose stages freeze when learned follows stage changes
// at steps its test picks on the run's inputs, passes the correct engines and
// refuses every stage-change injection in that check itself.
func TestGateAuto(t *testing.T) {
	specs := gateSpecs()
	r := reference.New()
	r.MaxUnroll = gateUnroll
	for _, m := range []arch.Method{arch.MethodCCN, arch.MethodConstructive} {
		t.Run(string(m), func(t *testing.T) {
			spec := specs[m]
			spec.Net.AutoFreeze = true
			require.NoError(t, Gate(spec))
			for i, scale := range gateScales {
				tr := Trajectory{Xs: spec.Xs, Scale: scale}
				name, a, err := gateAuto(r, *spec.Net, spec.Net.Norm, "the run's normalization", tr, newRand(spec.Seed, i), InjectNone)
				require.NoError(t, err)
				assert.True(t, a.Pass(), "%s: %+v", name, a)
				t.Log(name)
				for _, in := range []Injection{InjectRestartStats, InjectRestartState, InjectPreviousStepFeatures, InjectDropRecurrentTerm} {
					name, a, err := gateAuto(r, *spec.Net, spec.Net.Norm, "the run's normalization", tr, newRand(spec.Seed, i), in)
					require.NoError(t, err)
					assert.False(t, a.Pass(), "%s with %s", name, in)
				}
			}
			spec.Inject = InjectRestartState
			var ge *GateError
			require.True(t, errors.As(Gate(spec), &ge))
		})
	}
}
