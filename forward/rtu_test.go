package forward

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/arch"
)

// newTestRTU returns an RTU with the authors' initialization of ν, θ
// (|λ| in [0.5, 0.99)) and uniform input weights and head.
func newTestRTU(shape arch.RTU, seed uint64) *RTU {
	rng := rand.New(rand.NewPCG(seed, 7))
	e := NewRTU(shape)
	fillUniform(rng, e.Params(), 0.5)
	InitRTU(shape, e.Params(), 0.5, 0.99, func() float64 { return 1 - rng.Float64() })
	return e
}

// rtuFDWorst returns the worst deviation of the engine's gradient of y_T from
// central finite differences of its own forward pass, relative to
// max(1, |difference quotient|).
func rtuFDWorst(e *RTU, xs [][]float64) float64 {
	run := func() float64 {
		e.Reset()
		y := 0.0
		for _, x := range xs {
			y = e.Step(x)
		}
		return y
	}
	run()
	grad := make([]float64, e.NumParams())
	e.Grad(grad)
	worst := 0.0
	for i, fd := range centralDiff(e.Params(), run) {
		worst = math.Max(worst, math.Abs(fd-grad[i])/math.Max(1, math.Abs(fd)))
	}
	return worst
}

// The traces agree with central finite differences of the engine's own
// forward pass, for both variants: a check of (T1)-(T3) against (R1)-(R6)
// independent of the Gorgonia reference of package compare. Either trace
// defect breaks the agreement.
func TestRTUFiniteDifferences(t *testing.T) {
	for _, linear := range []bool{false, true} {
		shape := arch.RTU{Units: 3, Inputs: 4, Linear: linear}
		xs := randomInputs(rand.New(rand.NewPCG(2, 3)), 25, shape.Inputs)
		for _, d := range []Defect{NoDefect, DropPhaseCoupling, DropRecurrentTerm} {
			e := newTestRTU(shape, 1)
			e.Defect = d
			worst := rtuFDWorst(e, xs)
			if d == NoDefect {
				assert.Less(t, worst, 1e-7, "linear=%v", linear)
			} else {
				assert.Greater(t, worst, 1e-3, "linear=%v %v", linear, d)
			}
		}
	}
}

// A step's prediction is the head on the features, the features are tanh of
// the pre-activations, and Reset restarts the same trajectory exactly.
func TestRTUResetAndFeatures(t *testing.T) {
	shape := arch.RTU{Units: 2, Inputs: 3}
	e := newTestRTU(shape, 4)
	xs := randomInputs(rand.New(rand.NewPCG(5, 6)), 10, 3)
	var first []float64
	for _, x := range xs {
		first = append(first, e.Step(x))
	}
	_, _, _, _, wout, bout := shape.Split(e.Params())
	y := bout
	for i, h := range e.Features() {
		assert.Less(t, math.Abs(h), 1.0)
		y += wout[i] * h
	}
	assert.InDelta(t, first[len(first)-1], y, 1e-15)
	e.Reset()
	for i, x := range xs {
		assert.Equal(t, first[i], e.Step(x))
	}
}

// The authors' initialization puts |λ| = exp(−exp(ν^log)) in [rMin, rMax) and
// the phase exp(θ^log) in (0, 2π].
func TestInitRTU(t *testing.T) {
	shape := arch.RTU{Units: 200, Inputs: 2}
	p := make([]float64, shape.NumParams())
	rng := rand.New(rand.NewPCG(1, 1))
	InitRTU(shape, p, 0.4, 0.9, func() float64 { return 1 - rng.Float64() })
	nu, theta, _, _, _, _ := shape.Split(p)
	for j := range nu {
		r := math.Exp(-math.Exp(nu[j]))
		assert.True(t, r >= 0.4-1e-12 && r < 0.9, "r = %g", r)
		ph := math.Exp(theta[j])
		assert.True(t, ph > 0 && ph <= 2*math.Pi+1e-12, "phase %g", ph)
	}
}

// With the normalization on, the prediction is the head on the features
// normalized by Equation 11 (written out here, per feature), and the head's
// gradient is ĥ; the normalized engine's traces are those of the plain one
// scaled per feature by 1/max(ε, σ) (N3), which DropNormScale omits. With the
// normalization off, DropNormScale changes nothing.
func TestRTUNormalization(t *testing.T) {
	norm := arch.Normalization{Enabled: true, Decay: 0.8, Epsilon: 0.05}
	for _, linear := range []bool{false, true} {
		shape := arch.RTU{Units: 3, Inputs: 4, Linear: linear}
		normed := shape
		normed.Norm = norm
		xs := randomInputs(rand.New(rand.NewPCG(8, 9)), 30, shape.Inputs)
		plain, on, off := newTestRTU(shape, 2), newTestRTU(normed, 2), newTestRTU(shape, 2)
		off.Defect = DropNormScale
		mu, v := make([]float64, 2*shape.Units), make([]float64, 2*shape.Units)
		for k := range v {
			v[k] = 1
		}
		_, _, _, _, wout, bout := normed.Split(on.Params())
		gPlain, gOn, gOff, gOffRef := make([]float64, shape.NumParams()), make([]float64, shape.NumParams()), make([]float64, shape.NumParams()), make([]float64, shape.NumParams())
		scaleMoved := false
		for _, x := range xs {
			plain.Step(x)
			off.Step(x)
			y := on.Step(x)
			assert.Equal(t, plain.Features(), on.Features(), "the recurrence does not see the normalization")
			want := bout
			scale := make([]float64, len(mu))
			hat := make([]float64, len(mu))
			for k, h := range plain.Features() {
				prev := mu[k]
				mu[k] = 0.8*mu[k] + 0.2*h
				v[k] = 0.8*v[k] + 0.2*(mu[k]-h)*(prev-h)
				scale[k] = 1 / math.Max(0.05, math.Sqrt(v[k]))
				hat[k] = (h - mu[k]) * scale[k]
				want += wout[k] * hat[k]
				scaleMoved = scaleMoved || math.Abs(scale[k]-1) > 0.1
			}
			assert.InDelta(t, want, y, 1e-13)
			plain.Grad(gPlain)
			on.Grad(gOn)
			off.Grad(gOff)
			rtuScaledGrad(shape, plain, on.Params(), scale, gOffRef)
			for i := range gOn {
				switch {
				case i >= shape.OffOut() && i < shape.IdxOutBias():
					assert.InDelta(t, hat[i-shape.OffOut()], gOn[i], 1e-13)
				case i < shape.OffOut():
					assert.InDelta(t, gOffRef[i], gOn[i], 1e-12*math.Max(1, math.Abs(gOn[i])))
				}
			}
			assert.Equal(t, gPlain[:shape.OffOut()], gOff[:shape.OffOut()], "DropNormScale: the plain layer's traces")
		}
		assert.True(t, scaleMoved, "the statistics must move for the check to mean anything")
		assert.NotEqual(t, gOn[:shape.OffOut()], gOff[:shape.OffOut()])
	}
}

// rtuScaledGrad writes the recurrent part of (N3) from the plain engine's traces:
// each feature's contribution scaled by scale[k].
func rtuScaledGrad(shape arch.RTU, plain *RTU, params, scale, dst []float64) {
	n, m := shape.Units, shape.Inputs
	_, _, _, _, wout, _ := shape.Split(params)
	for j := 0; j < n; j++ {
		c1 := wout[j] * plain.o1[j] * scale[j]
		c2 := wout[n+j] * plain.o2[j] * scale[n+j]
		dst[j] = c1*plain.nu1[j] + c2*plain.nu2[j]
		dst[n+j] = c1*plain.th1[j] + c2*plain.th2[j]
		for k := 0; k < m; k++ {
			dst[shape.OffW1()+j*m+k] = c1*plain.a1[j*m+k] + c2*plain.a2[j*m+k]
			dst[shape.OffW2()+j*m+k] = c1*plain.b1[j*m+k] + c2*plain.b2[j*m+k]
		}
	}
}

func TestRTUZeroAllocs(t *testing.T) {
	for _, linear := range []bool{false, true} {
		e := newTestRTU(arch.RTU{Units: 4, Inputs: 12, Linear: linear, Norm: arch.Normalization{Enabled: linear}}, 1)
		xs := benchInputs(12)
		dst := make([]float64, e.NumParams())
		i := 0
		allocs := testing.AllocsPerRun(100, func() {
			e.Step(xs[i&63])
			e.Grad(dst)
			i++
		})
		assert.Zero(t, allocs)
	}
}

func TestRTUPanics(t *testing.T) {
	e := NewRTU(arch.RTU{Units: 2, Inputs: 3})
	assert.PanicsWithValue(t, "forward: RTU input has length 2, want 3", func() { e.Step(make([]float64, 2)) })
	assert.PanicsWithValue(t, "forward: RTU gradient has length 1, want 21", func() { e.Grad(make([]float64, 1)) })
	assert.PanicsWithValue(t, "arch: invalid RTU shape n=0 m=3", func() { NewRTU(arch.RTU{Inputs: 3}) })
}

// BenchmarkRTU sizes both variants from 4 to 64 units on 12 inputs.
func BenchmarkRTU(b *testing.B) { benchRTU(b, []int{4, 16, 64}, arch.Normalization{}) }

// BenchmarkRTUNormalized is BenchmarkRTU at 16 and 21 units with the online
// normalization on (the default of ccn run).
func BenchmarkRTUNormalized(b *testing.B) {
	benchRTU(b, []int{16, 21}, arch.Normalization{Enabled: true})
}

// BenchmarkRTUAtari is BenchmarkRTUNormalized at the pixel games' size: 13
// units (rtu-atari.yaml) on 275 inputs.
func BenchmarkRTUAtari(b *testing.B) {
	benchRTUInputs(b, []int{13}, 275, arch.Normalization{Enabled: true})
}

// benchRTU times one Step and one Grad of both variants at each number of
// units on 12 inputs, normalized as norm says (benchStepGradAsIs).
func benchRTU(b *testing.B, units []int, norm arch.Normalization) { benchRTUInputs(b, units, 12, norm) }

// benchRTUInputs is benchRTU on m inputs.
func benchRTUInputs(b *testing.B, units []int, m int, norm arch.Normalization) {
	for _, linear := range []bool{false, true} {
		for _, n := range units {
			b.Run(fmt.Sprintf("linear=%v/n=%d", linear, n), func(b *testing.B) {
				benchStepGradAsIs(b, newTestRTU(arch.RTU{Units: n, Inputs: m, Linear: linear, Norm: norm}, 1), m)
			})
		}
	}
}

// TestRTUInputsIsRowByRow checks rtuInputs bitwise against each row's dot
// product summed in order, one row at a time (the loop it replaced), for
// numbers of units on both sides of its pairs and inputs from 1 to 275.
func TestRTUInputsIsRowByRow(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 3, 4, 13} {
		for _, m := range []int{1, 5, 12, 275} {
			w1, w2, x := make([]float64, n*m), make([]float64, n*m), make([]float64, m)
			for _, s := range [][]float64{w1, w2, x} {
				for i := range s {
					s[i] = r.NormFloat64()
				}
			}
			u, v := make([]float64, n), make([]float64, n)
			rtuInputs(u, v, w1, w2, x)
			for j := range n {
				var uj, vj float64
				for k := range m {
					uj += w1[j*m+k] * x[k]
					vj += w2[j*m+k] * x[k]
				}
				assert.Equal(t, math.Float64bits(uj), math.Float64bits(u[j]), "n=%d m=%d u[%d]", n, m, j)
				assert.Equal(t, math.Float64bits(vj), math.Float64bits(v[j]), "n=%d m=%d v[%d]", n, m, j)
			}
		}
	}
}
