package graph

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/ccn-go/ccn/arch"
)

// RTU is a layer of Recurrent Trace Units (arch.RTU) unrolled over Steps steps
// from the zero state, complex numbers written as real pairs (the equations
// of forward.RTU):
//
//	r = exp(−exp(ν))   ϑ = exp(θ)   g = r⊙cos ϑ   φ = r⊙sin ϑ   γ = √(1 − r⊙r)
//	p_t = g⊙s¹_{t−1} − φ⊙s²_{t−1} + γ⊙(W_1·x_t)
//	q_t = g⊙s²_{t−1} + φ⊙s¹_{t−1} + γ⊙(W_2·x_t)
//	(s¹_t, s²_t) = (p_t, q_t) (Shape.Linear)   or   (tanh p_t, tanh q_t)
//	y_t = w_re·ĥ^re_t + w_im·ĥ^im_t + b_out
//	ĥ^re_t = (tanh(p_t) − μ^re_t)⊙inv^re_t   ĥ^im_t = (tanh(q_t) − μ^im_t)⊙inv^im_t
//	L   = Σ_t a_t·y_t
//
// with w_out = [w_re w_im] of the flat layout and, when Shape.Norm is
// enabled, the statistics μ and inv = 1/max(ε, σ) constants (paper §3.4,
// Equation 11, held constant in the gradient); with it off ĥ = tanh. The graph states the model
// once more, in whole-vector operations, and Gorgonia differentiates it by
// reverse mode: the ground truth of forward.RTU's traces.
type RTU struct {
	Shape arch.RTU
	Steps int

	Graph *gorgonia.ExprGraph

	// Gradient targets, in the order of the flat layout.
	Nu, Theta, W1, W2, WRe, WIm, BOut *gorgonia.Node
	// Constants: the inputs (Steps×(m+1), row t-1 is [x_t 0]), the objective weights (Steps) and
	// the zero entering state (n).
	X, A, S0 *gorgonia.Node
	// Constants when Shape.Norm is enabled (nil otherwise): the statistics μ
	// and inv, Steps×(2n+1), row t-1 for step t in the order of the features
	// (the last column unused: a spare that keeps n = 1 rows vectors).
	Mu, Inv *gorgonia.Node
	// H[t-1] are the features (tanh(p_t), tanh(q_t)), 2n values, when
	// Shape.Norm is enabled (nil otherwise): what the statistics are
	// computed from.
	H []*gorgonia.Node

	// Y[t-1] is the scalar y_t; Loss is L.
	Y    []*gorgonia.Node
	Loss *gorgonia.Node
	// Grads are ∂L/∂ν, ∂L/∂θ, ∂L/∂W_1, ∂L/∂W_2, ∂L/∂w_re, ∂L/∂w_im, ∂L/∂b_out.
	Grads gorgonia.Nodes
}

// NewRTU builds the graph of shape unrolled over steps ≥ 1 steps, together
// with the symbolic gradient of L.
//
// Each input row carries a trailing 0 that a zero column appended to W_1 and
// W_2 reads: Gorgonia slices a row of one value down to a scalar, and the
// padding keeps m = 1 a vector.
func NewRTU(shape arch.RTU, steps int) (*RTU, error) {
	shape.Validate()
	if steps < 1 {
		panic(fmt.Sprintf("graph: RTU window of %d steps", steps))
	}
	n, m := shape.Units, shape.Inputs
	g := gorgonia.NewGraph()
	vec := func(k int, name string) *gorgonia.Node {
		return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(k), gorgonia.WithName(name))
	}
	mat := func(r, c int, name string) *gorgonia.Node {
		return gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(r, c), gorgonia.WithName(name))
	}
	d := &RTU{
		Shape: shape, Steps: steps, Graph: g,
		Nu: vec(n, "rtu_nu_log"), Theta: vec(n, "rtu_theta_log"),
		W1: mat(n, m, "rtu_W_1"), W2: mat(n, m, "rtu_W_2"),
		WRe: vec(n, "rtu_w_re"), WIm: vec(n, "rtu_w_im"),
		BOut: gorgonia.NewScalar(g, tensor.Float64, gorgonia.WithName("rtu_b_out")),
		X:    mat(steps, m+1, "rtu_x0"), A: vec(steps, "rtu_a"), S0: vec(n, "rtu_s_0"),
		Y: make([]*gorgonia.Node, steps), H: make([]*gorgonia.Node, steps),
	}
	if shape.Norm.Enabled {
		d.Mu, d.Inv = mat(steps, 2*n+1, "rtu_mu"), mat(steps, 2*n+1, "rtu_inv")
	}
	err := build("RTU", func() {
		must := gorgonia.Must
		add := func(a, b *gorgonia.Node) *gorgonia.Node { return must(gorgonia.Add(a, b)) }
		sub := func(a, b *gorgonia.Node) *gorgonia.Node { return must(gorgonia.Sub(a, b)) }
		r := must(gorgonia.Exp(must(gorgonia.Neg(must(gorgonia.Exp(d.Nu))))))
		vt := must(gorgonia.Exp(d.Theta))
		gc := elemMul(r, must(gorgonia.Cos(vt)))
		phi := elemMul(r, must(gorgonia.Sin(vt)))
		gam := must(gorgonia.Sqrt(sub(gorgonia.NewConstant(1.0), elemMul(r, r))))
		zero := gorgonia.NewConstant(tensor.New(tensor.WithShape(n, 1), tensor.WithBacking(make([]float64, n))), gorgonia.WithName("rtu_zero_column"))
		w1 := must(gorgonia.Concat(1, d.W1, zero))
		w2 := must(gorgonia.Concat(1, d.W2, zero))
		// The zero state enters as a node, so that θ reaches the graph at
		// T = 1 too (its gradient is then zero).
		s1, s2 := d.S0, d.S0
		for t := 0; t < steps; t++ {
			x := must(gorgonia.Slice(d.X, gorgonia.S(t)))
			p := elemMul(gam, must(gorgonia.Mul(w1, x)))
			q := elemMul(gam, must(gorgonia.Mul(w2, x)))
			p = add(p, sub(elemMul(gc, s1), elemMul(phi, s2)))
			q = add(q, add(elemMul(gc, s2), elemMul(phi, s1)))
			fp, fq := must(gorgonia.Tanh(p)), must(gorgonia.Tanh(q))
			if shape.Linear {
				s1, s2 = p, q
			} else {
				s1, s2 = fp, fq
			}
			hp, hq := fp, fq
			if d.Mu != nil {
				d.H[t] = must(gorgonia.Concat(0, fp, fq))
				stat := func(m *gorgonia.Node, lo int) *gorgonia.Node {
					return must(gorgonia.Slice(m, gorgonia.S(t), gorgonia.S(lo, lo+n)))
				}
				hp = elemMul(sub(fp, stat(d.Mu, 0)), stat(d.Inv, 0))
				hq = elemMul(sub(fq, stat(d.Mu, n)), stat(d.Inv, n))
			}
			d.Y[t] = add(add(must(gorgonia.Mul(d.WRe, hp)), must(gorgonia.Mul(d.WIm, hq))), d.BOut)
			d.Loss = addTerm(d.Loss, d.A, t, d.Y[t])
		}
	})
	if err != nil {
		return nil, err
	}
	if d.Grads, err = gorgonia.Grad(d.Loss, d.Nu, d.Theta, d.W1, d.W2, d.WRe, d.WIm, d.BOut); err != nil {
		return nil, fmt.Errorf("graph: RTU gradient: %w", err)
	}
	return d, nil
}

// Bind binds the flat arch.RTU parameter vector params, the inputs xs (Steps
// rows of m values), the objective weights a (Steps values) and, when
// Shape.Norm is enabled, the statistics mean[t][k] = μ_{t+1,k} and inv[t][k]
// = 1/max(ε, σ_{t+1,k}) of the 2n features (nil: μ = 0, inv = 1, so that a
// first run gives the features the statistics are computed from; ignored
// with Norm off). Values are copied. Length mismatches panic.
func (d *RTU) Bind(params []float64, xs [][]float64, a []float64, mean, inv [][]float64) error {
	n, m := d.Shape.Units, d.Shape.Inputs
	if len(xs) != d.Steps || len(a) != d.Steps {
		panic(fmt.Sprintf("graph: RTU window of %d steps bound to %d inputs and %d weights", d.Steps, len(xs), len(a)))
	}
	nu, theta, w1, w2, wout, bout := d.Shape.Split(params)
	for _, err := range []error{
		letVector(d.Nu, nu), letVector(d.Theta, theta),
		letMatrix(d.W1, n, m, w1), letMatrix(d.W2, n, m, w2),
		letVector(d.WRe, wout[:n]), letVector(d.WIm, wout[n:]),
		gorgonia.Let(d.BOut, bout),
		letRows(d.X, withZero(xs), m+1), letVector(d.A, a), letVector(d.S0, make([]float64, n)),
	} {
		if err != nil {
			return fmt.Errorf("graph: bind RTU: %w", err)
		}
	}
	if d.Mu == nil {
		return nil
	}
	if mean == nil {
		mean, inv = make([][]float64, d.Steps), make([][]float64, d.Steps)
		for t := range mean {
			mean[t], inv[t] = make([]float64, 2*n), make([]float64, 2*n)
			for k := range inv[t] {
				inv[t][k] = 1
			}
		}
	}
	if len(mean) != d.Steps || len(inv) != d.Steps {
		panic(fmt.Sprintf("graph: RTU window of %d steps bound to %d, %d statistics", d.Steps, len(mean), len(inv)))
	}
	for _, err := range []error{letRows(d.Mu, withZero(mean), 2*n+1), letRows(d.Inv, withZero(inv), 2*n+1)} {
		if err != nil {
			return fmt.Errorf("graph: bind RTU statistics: %w", err)
		}
	}
	return nil
}

// Features returns the features of every step, tanh(p_t) then tanh(q_t),
// after a run, as fresh slices (Shape.Norm enabled only).
func (d *RTU) Features() ([][]float64, error) {
	hs := make([][]float64, d.Steps)
	for t, node := range d.H {
		v, err := Floats(node)
		if err != nil {
			return nil, err
		}
		hs[t] = append([]float64(nil), v...)
	}
	return hs, nil
}

// Gradient returns the values of the gradient nodes after a run, as a fresh
// flat vector in the arch.RTU layout.
func (d *RTU) Gradient() ([]float64, error) {
	grad := make([]float64, 0, d.Shape.NumParams())
	for _, n := range d.Grads {
		v, err := Floats(n)
		if err != nil {
			return nil, err
		}
		grad = append(grad, v...)
	}
	if len(grad) != d.Shape.NumParams() {
		return nil, fmt.Errorf("graph: RTU gradient has %d values, want %d", len(grad), d.Shape.NumParams())
	}
	return grad, nil
}

// withZero returns the rows of xs, each followed by a 0.
func withZero(xs [][]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for t, x := range xs {
		out[t] = append(append(make([]float64, 0, len(x)+1), x...), 0)
	}
	return out
}

// Outputs returns y_1..y_Steps after a run, as a fresh slice.
func (d *RTU) Outputs() ([]float64, error) { return scalars(d.Y) }
