package compare

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// runBoth steps two dense engines with the same parameters through xs and
// returns the worst agreement of their predictions and gradients.
func runBoth(t *testing.T, a, b arch.Engine, xs [][]float64) Agreement {
	t.Helper()
	ga, gb := make([]float64, a.NumParams()), make([]float64, b.NumParams())
	var worst Agreement
	for _, x := range xs {
		ya, yb := a.Step(x), b.Step(x)
		a.Grad(ga)
		b.Grad(gb)
		worst = worst.Worst(Measure([]float64{ya}, []float64{yb})).Worst(Measure(ga, gb))
	}
	return worst
}

// SnAp-1 is exact RTRL when there is one unit and when W_hh is diagonal
// (independent columns); with a dense W_hh and H > 1 it is not (so the masked
// check below is not exactness in disguise). DropRecurrentTerm breaks the
// exact cases.
func TestSnAp1AgainstDenseRTRL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shape    arch.Dense
		diagonal bool
		exact    bool
	}{
		{"H=1", arch.Dense{Hidden: 1, Inputs: 3}, false, true},
		{"H=1 b_out", arch.Dense{Hidden: 1, Inputs: 5, OutBias: true}, false, true},
		{"diagonal H=3", arch.Dense{Hidden: 3, Inputs: 4}, true, true},
		{"diagonal H=4 b_out", arch.Dense{Hidden: 4, Inputs: 12, OutBias: true}, true, true},
		{"dense H=3", arch.Dense{Hidden: 3, Inputs: 4, OutBias: true}, false, false},
	} {
		for i := range scales {
			rng := newRand(11, i)
			tr := randomTrajectory(rng, i, 60, tc.shape.Inputs)
			for _, defect := range []forward.Defect{forward.NoDefect, forward.DropRecurrentTerm} {
				s, d := forward.NewSnAp1(tc.shape), forward.NewDenseRTRL(tc.shape)
				fillUniform(newRand(12, i), s.Params(), tr.Scale)
				if tc.diagonal {
					zeroOffDiagonal(tc.shape, s.Params())
				}
				copy(d.Params(), s.Params())
				s.Defect = defect
				a := runBoth(t, s, d, tr.Xs)
				want := tc.exact && defect == forward.NoDefect
				assert.Equal(t, want, a.Pass(), "%s scale %g %v: max rel %.3g", tc.name, tr.Scale, defect, a.MaxRel)
				if !want {
					assert.Greater(t, a.MaxRel, 1e-6, "%s scale %g %v: the difference is material", tc.name, tr.Scale, defect)
				}
			}
		}
	}
}

// SnAp-1 equals the independent MaskedRTRL on general dense networks and
// (through the suite's check) the reference where it is exact; the defect
// fails every one.
func TestSnAp1AgainstDocumentedApproximation(t *testing.T) {
	r := reference.New()
	for _, tc := range []struct {
		shape    arch.Dense
		diagonal bool
	}{
		{arch.Dense{Hidden: 2, Inputs: 3}, false},
		{arch.Dense{Hidden: 5, Inputs: 2, OutBias: true}, false},
		{arch.Dense{Hidden: 1, Inputs: 4, OutBias: true}, false},
		{arch.Dense{Hidden: 3, Inputs: 3, OutBias: true}, true},
	} {
		for i := range scales {
			for _, defect := range []forward.Defect{forward.NoDefect, forward.DropRecurrentTerm} {
				rng := newRand(21, i)
				tr := randomTrajectory(rng, i, 40, tc.shape.Inputs)
				a, err := CheckSnAp1(r, tc.shape, tc.diagonal, tr, rng, defect)
				require.NoError(t, err)
				assert.Equal(t, defect == forward.NoDefect, a.Pass(), "%+v diag=%v scale %g %v: max rel %.3g", tc.shape, tc.diagonal, tr.Scale, defect, a.MaxRel)
			}
		}
	}
}

// MaskedRTRL, the witness, is itself exact RTRL where the mask removes
// nothing (H = 1), checked against the reference.
func TestMaskedRTRLWitness(t *testing.T) {
	r := reference.New()
	shape := arch.Dense{Hidden: 1, Inputs: 3, OutBias: true}
	rng := newRand(31, 0)
	tr := randomTrajectory(rng, 1, 25, shape.Inputs)
	params := make([]float64, shape.NumParams())
	fillUniform(rng, params, 1.5)
	grads := MaskedRTRL(shape, params, tr.Xs)
	for _, ti := range []int{1, 13, 25} {
		_, want, err := r.Dense(shape, params, tr.Xs[:ti], nil)
		require.NoError(t, err)
		a := Measure(grads[ti-1], want)
		assert.True(t, a.Pass(), "t=%d: max rel %.3g", ti, a.MaxRel)
	}
}
