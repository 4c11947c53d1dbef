package td_test

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/td"
)

// linear is the smallest learner, y = w·x + b: an arch.Engine whose Grad is
// ∂y/∂(w, b) = (x, 1).
type linear struct{ x, p []float64 }

var _ arch.Engine = (*linear)(nil)

func newLinear(inputs int) *linear {
	return &linear{x: make([]float64, inputs), p: make([]float64, inputs+1)}
}

func (l *linear) Step(x []float64) float64 {
	copy(l.x, x)
	y := l.p[len(x)]
	for i, v := range x {
		y += l.p[i] * v
	}
	return y
}

func (l *linear) Grad(dst []float64) {
	copy(dst, l.x)
	dst[len(l.x)] = 1
}

func (l *linear) Params() []float64 { return l.p }
func (l *linear) NumParams() int    { return len(l.p) }

// A new learner is an arch.Engine; TD(λ) with an optimizer learns it online.
// The Layout tells the optimizer where the head (the weights read by the
// prediction) lies: here the whole vector.
func Example_learner() {
	e := env.NewTracePatterning(env.TraceConfig{}, 1)
	n := e.ObservationSize()
	l := newLinear(n)
	layout := td.Layout{Size: n + 1, HeadStart: 0, HeadEnd: n + 1, Features: n}
	agent := td.New(l, layout, &td.RMSProp{StepSize: 1e-3}, e.Gamma(), 0.99)

	const steps = 200_000
	x := make([]float64, n)
	_, ret := e.Next(x)
	y := agent.Start(x)
	var sum float64
	for t := 1; t <= steps; t++ {
		d := y - ret
		sum += d * d
		c, g := e.Next(x)
		y, _ = agent.Step(x, c)
		ret = g
	}
	_, constant := env.ConstantBaseline(env.NewTracePatterning(env.TraceConfig{}, 1), steps)
	// Without memory a linear learner does no better than the best constant:
	// trace patterning needs a recurrent one.
	fmt.Printf("mean squared error %.4f, best constant %.4f\n", sum/steps, constant)
	// Output:
	// mean squared error 0.0186, best constant 0.0186
}
