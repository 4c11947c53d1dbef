package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/reference"
)

// Every RTU row agrees with the reference at every parameter scale, and each
// injected defect of the RTU traces makes every row of length > 1 fail (at
// t = 1 the traces hold no recurrent term yet); dropping the normalization's
// scale makes every normalized row fail and leaves the others passing.
func TestRTURows(t *testing.T) {
	r := reference.New()
	cfg := SuiteConfig{Seed: 11}
	for i, c := range rtuCases(50) {
		res := runCase(r, c, cfg, i)
		require.NoError(t, res.Err, "%s n=%d m=%d T=%d", c.Cell, c.Hidden, c.Inputs, c.Length)
		assert.True(t, res.Pass(), "%s n=%d m=%d T=%d: max rel %.3g", c.Cell, c.Hidden, c.Inputs, c.Length, res.MaxRel)
		t.Logf("%-10s n=%d m=%2d T=%2d norm %-5s max rel %.3g", c.Cell, c.Hidden, c.Inputs, c.Length, c.Norm, res.MaxRel)
		if testing.Short() || c.Length == 1 {
			continue
		}
		for _, in := range []Injection{InjectDropRecurrentTerm, InjectDropPhaseCoupling, InjectDropNormScale} {
			bad := runCase(r, c, SuiteConfig{Seed: 11, Trajectories: 1, Inject: in}, i)
			require.NoError(t, bad.Err)
			if in == InjectDropNormScale && !c.RTU().Norm.Enabled {
				assert.True(t, bad.Pass(), "%s on %s n=%d m=%d T=%d without normalization: max rel %.3g", in, c.Cell, c.Hidden, c.Inputs, c.Length, bad.MaxRel)
				continue
			}
			assert.False(t, bad.Pass(), "%s on %s n=%d m=%d T=%d norm %s: max rel %.3g", in, c.Cell, c.Hidden, c.Inputs, c.Length, c.Norm, bad.MaxRel)
			t.Logf("  %s: max rel %.3g", in, bad.MaxRel)
		}
	}
}
