package reference

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

func TestDenseMatchesFiniteDifferences(t *testing.T) {
	r := New()
	for _, hid := range []int{1, 3} {
		for _, m := range []int{2, 5} {
			for _, steps := range []int{1, 7, 30} {
				shape := arch.Dense{Hidden: hid, Inputs: m}
				t.Run(fmt.Sprintf("H=%d/m=%d/T=%d", hid, m, steps), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(hid), uint64(10*m+steps)))
					params := uniform(rng, shape.NumParams(), 0.8)
					xs := inputs(rng, steps, m)
					a := uniform(rng, steps, 1)

					ys, grad, err := r.Dense(shape, params, xs, a)
					require.NoError(t, err)

					plain, _, _ := Forward(shape, params, nil, nil, xs)
					assert.InDeltaSlice(t, plain, ys, 1e-12)
					fd := centralDiff(params, func() float64 {
						ys, _, _ := Forward(shape, params, nil, nil, xs)
						return weighted(a, ys)
					})
					assertRelClose(t, fd, grad, fdTol, "gradient")
					assertNotTrivial(t, grad)
				})
			}
		}
	}
}

// With the output bias the graph's outputs are the plain ones shifted by b_out,
// the cell gradients are unchanged, and ∂L/∂b_out = Σ_t a_t; finite
// differences of the plain forward pass witness the whole vector.
func TestDenseOutputBias(t *testing.T) {
	r := New()
	plain := arch.Dense{Hidden: 2, Inputs: 3}
	shape := arch.Dense{Hidden: 2, Inputs: 3, OutBias: true}
	rng := rand.New(rand.NewPCG(4, 5))
	params := uniform(rng, shape.NumParams(), 0.8)
	xs := inputs(rng, 9, 3)
	a := uniform(rng, 9, 1)

	ys, grad, err := r.Dense(shape, params, xs, a)
	require.NoError(t, err)
	ys0, grad0, err := r.Dense(plain, params[:plain.NumParams()], xs, a)
	require.NoError(t, err)
	bOut := params[shape.IdxOutBias()]
	require.NotZero(t, bOut)
	for i := range ys {
		assert.InDelta(t, ys0[i]+bOut, ys[i], 1e-12)
	}
	assertRelClose(t, grad0, grad[:plain.NumParams()], 1e-12, "cell and w_out gradient")
	sum := 0.0
	for _, v := range a {
		sum += v
	}
	assert.InDelta(t, sum, grad[shape.IdxOutBias()], 1e-12)
	fd := centralDiff(params, func() float64 {
		ys, _, _ := Forward(shape, params, nil, nil, xs)
		return weighted(a, ys)
	})
	assertRelClose(t, fd, grad, fdTol, "gradient")

	// The truncated gradient of y_t has ∂y_t/∂b_out = 1.
	_, g, err := r.DenseTruncated(shape, params, xs, 7, 3)
	require.NoError(t, err)
	assert.InDelta(t, 1, g[shape.IdxOutBias()], 1e-15)
}

func TestDenseNilWeightsIsLastOutput(t *testing.T) {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	rng := rand.New(rand.NewPCG(1, 2))
	params := uniform(rng, shape.NumParams(), 0.8)
	xs := inputs(rng, 6, 3)
	r := New()
	_, got, err := r.Dense(shape, params, xs, nil)
	require.NoError(t, err)
	fd := centralDiff(params, func() float64 {
		ys, _, _ := Forward(shape, params, nil, nil, xs)
		return ys[len(ys)-1]
	})
	assertRelClose(t, fd, got, fdTol, "gradient of y_T")
}

func TestDenseTruncatedMatchesFiniteDifferences(t *testing.T) {
	r := New()
	shape := arch.Dense{Hidden: 3, Inputs: 4}
	rng := rand.New(rand.NewPCG(3, 4))
	params := uniform(rng, shape.NumParams(), 0.8)
	xs := inputs(rng, 12, 4)
	full, _, _ := Forward(shape, params, nil, nil, xs)
	for _, k := range []int{1, 2, 5} {
		for _, step := range []int{1, 3, 9, 12} {
			t.Run(fmt.Sprintf("k=%d/t=%d", k, step), func(t *testing.T) {
				ys, grad, err := r.DenseTruncated(shape, params, xs, step, k)
				require.NoError(t, err)
				assert.InDeltaSlice(t, full[:step], ys, 1e-12)

				n := min(k, step)
				// The entering state is computed once, at the unperturbed
				// parameters: it is a constant of the truncated gradient.
				_, hs, cs := Forward(shape, params, nil, nil, xs[:step-n])
				fd := centralDiff(params, func() float64 {
					ys, _, _ := Forward(shape, params, hs[step-n], cs[step-n], xs[step-n:step])
					return ys[n-1]
				})
				assertRelClose(t, fd, grad, fdTol, "truncated gradient")
				assertNotTrivial(t, grad)
			})
		}
	}
}

func TestDenseTruncatedFullIsBPTT(t *testing.T) {
	r := New()
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	rng := rand.New(rand.NewPCG(5, 6))
	params := uniform(rng, shape.NumParams(), 0.8)
	xs := inputs(rng, 8, 3)
	_, bptt, err := r.Dense(shape, params, xs[:6], nil)
	require.NoError(t, err)
	for _, k := range []int{0, 6, 20} {
		_, grad, err := r.DenseTruncated(shape, params, xs, 6, k)
		require.NoError(t, err)
		assert.InDeltaSlice(t, bptt, grad, 1e-12, "k=%d", k)
	}
	// Truncation does change the gradient when k < t.
	_, short, err := r.DenseTruncated(shape, params, xs, 6, 2)
	require.NoError(t, err)
	assert.NotEqual(t, bptt, short)
}

func TestDensePanics(t *testing.T) {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	params := make([]float64, shape.NumParams())
	xs := [][]float64{{1, 2, 3}, {4, 5, 6}}
	r := New()
	tests := []struct {
		name string
		f    func()
		msg  string
	}{
		{"params", func() { r.Dense(shape, params[1:], xs, nil) }, "reference: dense parameters have length 49, want 50"},
		{"input", func() { r.Dense(shape, params, [][]float64{{1, 2}}, nil) }, "reference: input 0 has length 2, want 3"},
		{"weights", func() { r.Dense(shape, params, xs, []float64{1}) }, "reference: 1 objective weights for 2 steps"},
		{"empty", func() { r.Dense(shape, params, nil, nil) }, "reference: no inputs"},
		{"step", func() { r.DenseTruncated(shape, params, xs, 3, 1) }, "reference: truncated gradient of step 3 with k=1 over 2 steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.PanicsWithValue(t, tt.msg, tt.f) })
	}
}
