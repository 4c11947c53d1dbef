package forward

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

// Linear predicts w·x̂ + b and its gradient is (x̂, 1): with the
// normalization off x̂ = x, with it on x̂ follows Equation 11 written out
// here per input.
func TestLinearStepAndGrad(t *testing.T) {
	for _, norm := range []arch.Normalization{{}, {Enabled: true, Decay: 0.9, Epsilon: 0.01}} {
		shape := arch.Linear{Inputs: 5, Norm: norm}
		l := NewLinear(shape)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range l.Params() {
			l.Params()[i] = rng.NormFloat64()
		}
		mu, v := make([]float64, 5), []float64{1, 1, 1, 1, 1}
		g := make([]float64, 6)
		for range 20 {
			x := make([]float64, 5)
			for i := range x {
				x[i] = rng.NormFloat64()
			}
			want := l.Params()[5]
			xhat := make([]float64, 5)
			for i, xi := range x {
				xhat[i] = xi
				if norm.Enabled {
					prev := mu[i]
					mu[i] = 0.9*mu[i] + 0.1*xi
					v[i] = 0.9*v[i] + 0.1*(mu[i]-xi)*(prev-xi)
					sd := max(0.01, math.Sqrt(v[i]))
					xhat[i] = (xi - mu[i]) / sd
				}
				want += l.Params()[i] * xhat[i]
			}
			assert.InDelta(t, want, l.Step(x), 1e-12)
			l.Grad(g)
			for i := range xhat {
				assert.InDelta(t, xhat[i], g[i], 1e-12)
			}
			assert.Equal(t, 1.0, g[5])
		}
	}
}

// AccumulateGrad is z ← decay·z + Grad, and none of the step's calls
// allocates.
func TestLinearAccumulateGradAndAllocs(t *testing.T) {
	l := NewLinear(arch.Linear{Inputs: 275, Norm: arch.Normalization{Enabled: true}})
	x := make([]float64, 275)
	for i := range x {
		x[i] = float64(i%7) / 7
	}
	l.Step(x)
	z, g := make([]float64, 276), make([]float64, 276)
	for i := range z {
		z[i] = float64(i)
	}
	want := make([]float64, 276)
	l.Grad(g)
	for i := range want {
		want[i] = 0.5*z[i] + g[i]
	}
	l.AccumulateGrad(z, 0.5)
	require.Equal(t, want, z)
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		l.Step(x)
		l.Grad(g)
		l.AccumulateGrad(z, 0.9)
	}))
}

// PreviousStepFeatures hands out the previous step's x̂.
func TestLinearDefect(t *testing.T) {
	l := NewLinear(arch.Linear{Inputs: 2})
	l.Defect = PreviousStepFeatures
	g := make([]float64, 3)
	l.Step([]float64{1, 2})
	l.Step([]float64{3, 4})
	l.Grad(g)
	assert.Equal(t, []float64{1, 2, 1}, g)
	assert.Panics(t, func() { l.Step([]float64{1}) })
	assert.Panics(t, func() { NewLinear(arch.Linear{}) })
}
