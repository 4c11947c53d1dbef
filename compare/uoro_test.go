package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
)

// UORO's mean over independent draws converges to exact RTRL's gradient; the
// biased variants fail the same check.
func TestUOROUnbiased(t *testing.T) {
	const draws = 20000
	for _, setup := range []struct {
		shape arch.Dense
		scale float64
		T     int
	}{
		{arch.Dense{Hidden: 2, Inputs: 3, OutBias: true}, 0.5, 20},
		{arch.Dense{Hidden: 3, Inputs: 2}, 1.5, 30},
	} {
		rng := newRand(41, setup.shape.Hidden)
		tr := randomTrajectory(rng, 0, setup.T, setup.shape.Inputs) // Gaussian inputs
		params := make([]float64, setup.shape.NumParams())
		fillUniform(rng, params, setup.scale)
		for _, tc := range []struct {
			defect forward.Defect
			pass   bool
		}{
			{forward.NoDefect, true},
			{forward.AsymmetricScaling, false},
			{forward.UnsignedNewTerm, false},
		} {
			st, err := CheckUORO(setup.shape, params, tr.Xs, draws, 7, tc.defect)
			require.NoError(t, err)
			t.Logf("%+v scale %g T %d %v: max z %.2f, T² %.1f (threshold %.1f, d = %d), exact parts %.2g",
				setup.shape, setup.scale, setup.T, tc.defect, st.MaxZ, st.T2, st.Threshold, st.Dims, st.Exact.MaxRel)
			assert.Equal(t, tc.pass, st.Pass(), "%+v %v", setup.shape, tc.defect)
			assert.True(t, st.Exact.Pass(), "predictions and head gradients are exact")
		}
	}
}

// Fewer draws than dimensions cannot estimate the covariance: a caller mistake.
func TestCheckUOROPanics(t *testing.T) {
	shape := arch.Dense{Hidden: 1, Inputs: 1}
	assert.PanicsWithValue(t, "compare: 8 UORO draws for 12 dimensions", func() {
		_, _ = CheckUORO(shape, make([]float64, shape.NumParams()), [][]float64{{1}}, 8, 1, forward.NoDefect)
	})
}
