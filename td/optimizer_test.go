package td

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With β1 = 0 and bias correction, Adam's step for a constant direction g is
// α·g/(|g| + ε) at every step, whatever the scale of g.
func TestAdamConstantDirection(t *testing.T) {
	a := &Adam{StepSize: 0.01}
	a.Reset(Layout{Size: 3, HeadStart: 2, HeadEnd: 3, Features: 1})
	theta := make([]float64, 3)
	d := []float64{1e-3, -5, 200}
	for step := 1; step <= 50; step++ {
		a.Update(theta, d, 1)
		for i, g := range d {
			assert.InDelta(t, float64(step)*0.01*g/(math.Abs(g)+1e-8), theta[i], 1e-12, "entry %d step %d", i, step)
		}
	}
}

// An entry that appears after many updates gets the bias correction of its
// own age: its first step is α, not α/√(1−β2).
func TestAdamRemapStartsFresh(t *testing.T) {
	a := &Adam{StepSize: 0.01}
	a.Reset(Layout{Size: 2, HeadEnd: 2, Features: 1})
	theta := make([]float64, 2)
	for range 1000 {
		a.Update(theta, []float64{1, 1}, 1)
	}
	a.Remap(Layout{Size: 3, HeadEnd: 3, Features: 1}, []int{-1, 0, 1})
	theta = []float64{0, theta[0], theta[1]}
	before := append([]float64(nil), theta...)
	a.Update(theta, []float64{2, 1, 1}, 1)
	assert.InDelta(t, 0.01, theta[0]-before[0], 1e-9)
	assert.InDelta(t, 0.01, theta[1]-before[1], 1e-9)
	assert.InDelta(t, 0.01, theta[2]-before[2], 1e-9)
}

// RMSProp's accumulator starts at 1: the first step is α·g/(√(β+(1−β)g²)+ε),
// and the head's step size is divided by the number of features unless
// FullHeadStep.
func TestRMSPropFirstStep(t *testing.T) {
	v := 0.9999 + 0.0001*4
	step := 0.1 * 2 / (math.Sqrt(v) + 1e-8)
	for _, tt := range []struct {
		full bool
		head float64 // the head's step
	}{{false, step / 4}, {true, step}} {
		r := &RMSProp{StepSize: 0.1, FullHeadStep: tt.full}
		l := Layout{Size: 4, HeadStart: 1, HeadEnd: 3, Features: 4}
		r.Reset(l)
		theta := make([]float64, 4)
		d := []float64{2, 2, 2, 2}
		r.Update(theta, d, 1)
		assert.InDelta(t, step, theta[0], 1e-15)
		assert.InDelta(t, tt.head, theta[1], 1e-15, "full head step %v", tt.full)
		assert.InDelta(t, tt.head, theta[2], 1e-15, "full head step %v", tt.full)
		assert.InDelta(t, step, theta[3], 1e-15)

		// The fold (whose head ends the vector) steps the head alike.
		theta, z := make([]float64, 4), []float64{2, 2, 2, 2}
		r.Reset(Layout{Size: 4, HeadStart: 2, HeadEnd: 4, Features: 4})
		r.UpdateFold(theta, z, 1, 0.5, make([]float64, 4))
		assert.InDelta(t, step, theta[1], 1e-15)
		assert.InDelta(t, tt.head, theta[2], 1e-15, "fold, full head step %v", tt.full)

		r.Remap(Layout{Size: 2, HeadStart: 0, HeadEnd: 2, Features: 2}, []int{-1, 1})
		assert.Equal(t, []float64{1, v}, r.v)
	}
}

func TestOptimizerPanics(t *testing.T) {
	for _, o := range []Optimizer[float64]{&Adam{StepSize: 1}, &RMSProp{StepSize: 1}} {
		assert.Panics(t, func() { o.Reset(Layout{Size: 0}) })
		o.Reset(Layout{Size: 2, HeadEnd: 2, Features: 1})
		require.Panics(t, func() { o.Update(make([]float64, 3), make([]float64, 3), 1) })
	}
}

// Both optimizers follow their formulas step by step, through spikes, zeros
// and tiny directions (where ε matters), Adam with its bias correction.
func TestOptimizersMatchDirectFormula(t *testing.T) {
	const n, steps = 64, 3000
	rng := rand.New(rand.NewPCG(3, 4))
	dir := func(i int) float64 {
		switch u := rng.Float64(); {
		case u < 0.05:
			return 0
		case u < 0.08:
			return 1e3 * rng.NormFloat64() // spike
		case i%5 == 0:
			return 1e-9 * rng.NormFloat64() // tiny: ε matters
		default:
			return rng.NormFloat64()
		}
	}
	l := Layout{Size: n, HeadStart: n, HeadEnd: n, Features: 1}
	r, a := &RMSProp{StepSize: 1}, &Adam{StepSize: 1}
	r.Reset(l)
	a.Reset(l)
	vr, va := make([]float64, n), make([]float64, n)
	for i := range vr {
		vr[i] = 1
	}
	const b, eps = 0.9999, 1e-8
	d := make([]float64, n)
	worst := 0.0
	for s := 1; s <= steps; s++ {
		for i := range d {
			d[i] = dir(i)
		}
		tr, ta := make([]float64, n), make([]float64, n)
		r.Update(tr, d, 0.5)
		a.Update(ta, d, 0.5)
		corr := math.Sqrt(1 - math.Pow(b, float64(s)))
		for i, di := range d {
			g := 0.5 * di
			vr[i] = b*vr[i] + (1-b)*g*g
			va[i] = b*va[i] + (1-b)*g*g
			wantR := g / (math.Sqrt(vr[i]) + eps)
			wantA := g / (math.Sqrt(va[i])/corr + eps)
			for _, pair := range [][2]float64{{wantR, tr[i]}, {wantA, ta[i]}} {
				if pair[0] == 0 {
					require.Equal(t, 0.0, pair[1])
					continue
				}
				worst = math.Max(worst, math.Abs(pair[1]-pair[0])/math.Abs(pair[0]))
			}
		}
	}
	// Adam keeps β2^n as a running product, math.Pow rounds differently, and
	// 1 − β2^n loses about log10(1/(1−β2)) = 4 digits in the first steps.
	assert.Less(t, worst, 1e-11)
	t.Logf("worst relative difference %.3g", worst)
}

// TestRMSPropUpdateFoldMatchesUpdate checks UpdateFold against Update followed
// by the fold written out, bitwise, for bodies whose length is a multiple of 8
// and not (RMSPropFold's tails), heads of one and of several entries; and that
// the comparison sees a decay one ulp off.
func TestRMSPropUpdateFoldMatchesUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Ldexp(rng.NormFloat64(), rng.IntN(20)-10)
		}
		return v
	}
	run := func(h0, head int, decayOff float64) (mism int) {
		size := h0 + head
		l := Layout{Size: size, HeadStart: h0, HeadEnd: size, Features: head}
		r1, r2 := &RMSProp{StepSize: 1e-3}, &RMSProp{StepSize: 1e-3}
		r1.Reset(l)
		r2.Reset(l)
		theta1, z1 := vec(size), vec(size)
		theta2, z2 := append([]float64(nil), theta1...), append([]float64(nil), z1...)
		for step := range 3 {
			g := vec(size)
			s, decay := 0.7-0.5*float64(step), 0.891
			r1.Update(theta1, z1, s)
			for i := range z1 {
				z1[i] = decay*z1[i] + g[i]
			}
			r2.UpdateFold(theta2, z2, s, decay+decayOff*decay, g)
		}
		for i := range theta1 {
			if math.Float64bits(theta1[i]) != math.Float64bits(theta2[i]) || math.Float64bits(z1[i]) != math.Float64bits(z2[i]) {
				mism++
			}
		}
		return mism
	}
	for _, c := range []struct{ h0, head int }{{192 + 64 + 16, 5}, {1 << 10, 1}, {224, 21}, {60, 4}, {2216, 11}, {7, 2}} {
		if d := run(c.h0, c.head, 0); d != 0 {
			t.Errorf("%+v: %d entries differ", c, d)
		}
	}
	if run(224, 21, 0x1p-52) == 0 {
		t.Error("a decay one ulp off went unnoticed")
	}
}

// Adam's floors (v below lanes.AccumulatorFloor(ε), β2^n below 2⁻¹⁰⁰⁰) keep
// θ's bits: with β2 = 0.7 the powers, and the accumulators of entries whose
// direction turns 0, reach the subnormals within 2,000 steps and stay at
// one ulp of them (where 0.7 rounds back to 1); θ must stay bitwise that of
// the formula without floors, computed here entry by entry, while the floors
// store zeros. A floor on the powers at 2⁻²⁰ changes θ.
func TestAdamFloorsKeepTheta(t *testing.T) {
	const n, steps, eps, alpha = 6, 3000, 1e-8, 0.01
	b2 := 0.7 // a variable: 1 − b2 of a constant would be exact
	a := &Adam{StepSize: alpha, Beta2: b2}
	a.Reset(Layout{Size: n, HeadStart: n - 1, HeadEnd: n, Features: 1})
	theta, want := make([]float64, n), make([]float64, n)
	v, pow := make([]float64, n), make([]float64, n)
	for i := range pow {
		pow[i] = 1
	}
	rng := rand.New(rand.NewPCG(21, 22))
	d := make([]float64, n)
	for step := range steps {
		for i := range d {
			switch {
			case i < 2 && step > 10: // directions that turn 0: v decays through the subnormals
				d[i] = 0
			case i == 2: // a direction decaying through tiny values
				d[i] = math.Ldexp(1, -step/4)
			default:
				d[i] = rng.NormFloat64()
			}
		}
		a.Update(theta, d, 0.5)
		for i, di := range d {
			g := 0.5 * di
			v[i] = b2*v[i] + (1-b2)*g*g
			pow[i] *= b2
			want[i] += alpha * g / (math.Sqrt(v[i])*(1/math.Sqrt(1-pow[i])) + eps)
		}
		for i := range theta {
			require.Equal(t, math.Float64bits(want[i]), math.Float64bits(theta[i]), "θ[%d] at step %d", i, step)
		}
	}
	zeros := 0
	for i := range n {
		if a.v[i] == 0 && v[i] != 0 {
			zeros++
		}
		if a.pow[i] == 0 && pow[i] != 0 {
			zeros++
		}
	}
	assert.GreaterOrEqual(t, zeros, n+2, "the floors stored no zeros where the unfloored values are not 0")
}
