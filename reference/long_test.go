package reference

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/testtier"
)

// The largest sizes the compare package uses, dense H = 4, m = 12, T = 200
// and networks of 12 features (or 6 stages) at T = 50, against finite
// differences: computed in windows of DefaultMaxUnroll steps, as the checks
// do, in every test run.
func TestLongTrajectories(t *testing.T) {
	longTrajectories(t, New())
}

// The same trajectories unrolled into one graph each (thousands of nodes;
// about 4 s together on an idle machine, minutes on a loaded one), in the
// full tier (make test-full, in CI; make test-long runs them alone). They
// guard against a Gorgonia defect: a dense graph whose outputs were collected
// with Concat+Reshape got zero cell gradients from about 65 steps with H = 4.
func TestLongUnrolledGraphs(t *testing.T) {
	testtier.Full(t, "builds graphs of thousands of nodes; make test-long runs it alone")
	r := New()
	r.MaxUnroll = 1000
	longTrajectories(t, r)
}

func longTrajectories(t *testing.T, r *Reference) {
	t.Run("dense H=4 m=12 T=200", func(t *testing.T) {
		shape := arch.Dense{Hidden: 4, Inputs: 12}
		rng := rand.New(rand.NewPCG(20, 21))
		params := uniform(rng, shape.NumParams(), 0.4)
		xs := inputs(rng, 200, 12)
		a := uniform(rng, 200, 1)
		start := time.Now()
		ys, grad, err := r.Dense(shape, params, xs, a)
		require.NoError(t, err)
		t.Logf("build+run %v", time.Since(start))
		plain, _, _ := Forward(shape, params, nil, nil, xs)
		assert.InDeltaSlice(t, plain, ys, 1e-12)
		fd := centralDiff(params, func() float64 {
			ys, _, _ := Forward(shape, params, nil, nil, xs)
			return weighted(a, ys)
		})
		assertRelClose(t, fd, grad, fdTol, "gradient")
	})
	networks := []struct {
		name string
		top  arch.Network
		T    int
	}{
		{"ccn 3×4 m=64 T=50", arch.CCN(64, 4, 2, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.01}), 50},
		{"columnar 12 m=12 T=50", arch.Columnar(12, 12, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.01}), 50},
		{"constructive 6 m=12 T=50", arch.CCN(12, 1, 5, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.01}), 50},
	}
	for i, tt := range networks {
		t.Run(tt.name, func(t *testing.T) {
			top := tt.top
			rng := rand.New(rand.NewPCG(22, uint64(i)))
			frozen := uniform(rng, top.NumFrozen(), 0.3)
			learnable := uniform(rng, top.NumLearnable(), 0.3)
			xs := inputs(rng, tt.T, top.Inputs)
			a := uniform(rng, tt.T, 1)
			start := time.Now()
			ys, grad, err := r.Network(top, frozen, learnable, xs, a)
			require.NoError(t, err)
			t.Logf("build+run %v", time.Since(start))
			plain, stats := NetworkForward(top, frozen, learnable, xs, nil)
			assert.InDeltaSlice(t, plain, ys, 1e-12)
			fd := centralDiff(learnable, func() float64 {
				ys, _ := NetworkForward(top, frozen, learnable, xs, stats)
				return weighted(a, ys)
			})
			assertRelClose(t, fd, grad, fdTol, "gradient")
			assertNotTrivial(t, grad)
		})
	}
}
