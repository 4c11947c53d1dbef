package graph

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/ccn-go/ccn/arch"
)

// Linear is the memoryless control (arch.Linear) over a window of Steps
// steps:
//
//	x̂_t = (x_t − μ_t)⊙inv_t        μ and inv = 1/max(ε, σ) input nodes
//	y_t = θ·[x̂_t 1]                 θ = (w, b)
//	L   = Σ_t a_t·y_t
//
// With the normalization off, bind μ = 0 and inv = 1. Having no state, a
// window's gradient does not depend on any other window's.
type Linear struct {
	Shape arch.Linear
	Steps int

	Graph *gorgonia.ExprGraph

	// Theta is the gradient target (Inputs + 1). X, Mean and Inv are
	// Steps×Inputs constants (row t−1 for step t), One the constant 1 and A
	// the objective weights.
	Theta, X, Mean, Inv, One, A *gorgonia.Node

	// Y[t-1] is the scalar y_t; Loss is L; Grad is ∂L/∂θ.
	Y    []*gorgonia.Node
	Loss *gorgonia.Node
	Grad *gorgonia.Node
}

// NewLinear builds the graph of shape over steps ≥ 1 steps, with the
// symbolic gradient of L.
func NewLinear(shape arch.Linear, steps int) (*Linear, error) {
	shape.Validate()
	if steps < 1 {
		panic(fmt.Sprintf("graph: linear window of %d steps", steps))
	}
	m := shape.Inputs
	g := gorgonia.NewGraph()
	mat := func(name string) *gorgonia.Node {
		return gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, m), gorgonia.WithName(name))
	}
	l := &Linear{
		Shape: shape, Steps: steps, Graph: g,
		Theta: gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(m+1), gorgonia.WithName("linear_theta")),
		X:     mat("linear_x"), Mean: mat("linear_mean"), Inv: mat("linear_inv"),
		One: gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(1), gorgonia.WithName("linear_one")),
		A:   gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(steps), gorgonia.WithName("linear_a")),
		Y:   make([]*gorgonia.Node, steps),
	}
	err := build("linear", func() {
		for t := range steps {
			row := func(n *gorgonia.Node) *gorgonia.Node { return gorgonia.Must(gorgonia.Slice(n, gorgonia.S(t))) }
			xhat := elemMul(gorgonia.Must(gorgonia.Sub(row(l.X), row(l.Mean))), row(l.Inv))
			l.Y[t] = gorgonia.Must(gorgonia.Mul(l.Theta, gorgonia.Must(gorgonia.Concat(0, xhat, l.One))))
			l.Loss = addTerm(l.Loss, l.A, t, l.Y[t])
		}
	})
	if err != nil {
		return nil, err
	}
	grads, err := gorgonia.Grad(l.Loss, l.Theta)
	if err != nil {
		return nil, fmt.Errorf("graph: linear gradient: %w", err)
	}
	l.Grad = grads[0]
	return l, nil
}

// Bind binds the parameters θ, the inputs, the statistics (nil: μ = 0 and
// inv = 1, the normalization off) and the objective weights. Lengths that do
// not match the shape panic.
func (l *Linear) Bind(theta []float64, xs, mean, inv [][]float64, a []float64) error {
	m := l.Shape.Inputs
	if len(theta) != m+1 || len(xs) != l.Steps || len(a) != l.Steps {
		panic(fmt.Sprintf("graph: linear window of %d steps bound to %d parameters, %d inputs and %d weights", l.Steps, len(theta), len(xs), len(a)))
	}
	if mean == nil {
		mean, inv = make([][]float64, l.Steps), make([][]float64, l.Steps)
		for t := range mean {
			mean[t], inv[t] = make([]float64, m), make([]float64, m)
			for i := range inv[t] {
				inv[t][i] = 1
			}
		}
	}
	for _, bind := range []func() error{
		func() error { return letVector(l.Theta, theta) },
		func() error { return letRows(l.X, xs, m) },
		func() error { return letRows(l.Mean, mean, m) },
		func() error { return letRows(l.Inv, inv, m) },
		func() error { return letVector(l.One, []float64{1}) },
		func() error { return letVector(l.A, a) },
	} {
		if err := bind(); err != nil {
			return fmt.Errorf("graph: bind linear: %w", err)
		}
	}
	return nil
}

// Outputs returns y_1..y_Steps after a run.
func (l *Linear) Outputs() ([]float64, error) { return scalars(l.Y) }

// Gradient returns ∂L/∂θ after a run.
func (l *Linear) Gradient() ([]float64, error) {
	g, err := Floats(l.Grad)
	if err != nil {
		return nil, err
	}
	if len(g) != l.Shape.NumParams() {
		return nil, fmt.Errorf("graph: linear gradient has %d values, want %d", len(g), l.Shape.NumParams())
	}
	return g, nil
}
