package graph

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/ccn-go/ccn/arch"
)

// Dense is a dense LSTM (arch.Dense) unrolled over a window of Steps steps that
// starts from the state (h_0, c_0):
//
//	a_t = W_ih·x_t + W_hh·h_{t-1} + b       gate-major, 4H values
//	i, f, g, o = σ(a_i), σ(a_f), tanh(a_g), σ(a_o)
//	c_t = f⊙c_{t-1} + i⊙g
//	h_t = o⊙tanh(c_t)
//	y_t = w_out·h_t + b_out                 (b_out only with Shape.OutBias)
//	L   = Σ_t a_t·y_t + λ_h·h_Steps + λ_c·c_Steps
//
// h_0 and c_0 are input nodes, constants for the parameter gradient, so the
// graph computes both full BPTT (h_0 = c_0 = 0 and the window is the whole
// trajectory) and the truncated gradient of T-BPTT (the window is the last k
// steps and (h_0, c_0) is the state entering it). The graph also gives
// ∂L/∂h_0 and ∂L/∂c_0, and takes the adjoint (λ_h, λ_c) of its final state
// (zero unless BindAdjoint sets it): chained from the last window to the
// first, windows compute full BPTT over a trajectory longer than any one
// graph (reference.Reference does so).
//
// The bias rides in the input product, [W_ih b]·[x_t 1], one node fewer per
// step: compiling a Gorgonia graph costs time quadratic in its node count.
type Dense struct {
	Shape arch.Dense
	Steps int

	Graph *gorgonia.ExprGraph

	// Gradient targets: W_ih (4H×m), W_hh (4H×H), b (4H), w_out (H), and
	// b_out (a scalar; nil without Shape.OutBias).
	WIH, WHH, B, WOut, BOut *gorgonia.Node
	// Constants: the entering state (H each), the inputs with a trailing 1
	// (Steps×(m+1), row t-1 is [x_t 1]), the objective weights (Steps) and
	// the final state's adjoint λ_h, λ_c (H each).
	H0, C0, X, A, LH, LC *gorgonia.Node

	// Y[t-1] is the scalar y_t; Loss is L.
	Y    []*gorgonia.Node
	Loss *gorgonia.Node
	// Grads are ∂L/∂W_ih, ∂L/∂W_hh, ∂L/∂b, ∂L/∂w_out (and ∂L/∂b_out), then
	// ∂L/∂h_0, ∂L/∂c_0, in that order.
	Grads gorgonia.Nodes
}

// NewDense builds the graph of shape unrolled over steps ≥ 1 steps, together
// with the symbolic gradient of L.
func NewDense(shape arch.Dense, steps int) (*Dense, error) {
	shape.Validate()
	if steps < 1 {
		panic(fmt.Sprintf("graph: dense window of %d steps", steps))
	}
	hid, m := shape.Hidden, shape.Inputs
	g := gorgonia.NewGraph()
	d := &Dense{
		Shape: shape,
		Steps: steps,
		Graph: g,
		WIH:   gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4*hid, m), gorgonia.WithName("dense_W_ih")),
		WHH:   gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4*hid, hid), gorgonia.WithName("dense_W_hh")),
		B:     gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4*hid), gorgonia.WithName("dense_b")),
		WOut:  gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(hid), gorgonia.WithName("dense_w_out")),
		H0:    gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(hid), gorgonia.WithName("dense_h_0")),
		C0:    gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(hid), gorgonia.WithName("dense_c_0")),
		X:     gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, m+1), gorgonia.WithName("dense_x1")),
		A:     gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(steps), gorgonia.WithName("dense_a")),
		Y:     make([]*gorgonia.Node, steps),
	}
	if shape.OutBias {
		d.BOut = gorgonia.NewScalar(g, tensor.Float64, gorgonia.WithName("dense_b_out"))
	}
	d.LH, d.LC = adjointNode(g, hid, "dense_lambda_h"), adjointNode(g, hid, "dense_lambda_c")
	err := build("dense LSTM", func() {
		bias := gorgonia.Must(gorgonia.Reshape(d.B, tensor.Shape{4 * hid, 1}))
		wAug := gorgonia.Must(gorgonia.Concat(1, d.WIH, bias))
		h, c := d.H0, d.C0
		for t := 0; t < steps; t++ {
			x := gorgonia.Must(gorgonia.Slice(d.X, gorgonia.S(t)))
			pre := gorgonia.Must(gorgonia.Add(
				gorgonia.Must(gorgonia.Mul(wAug, x)),
				gorgonia.Must(gorgonia.Mul(d.WHH, h))))
			h, c = lstmCell(pre, c, hid)
			d.Y[t] = gorgonia.Must(gorgonia.Mul(d.WOut, h))
			if d.BOut != nil {
				d.Y[t] = gorgonia.Must(gorgonia.Add(d.Y[t], d.BOut))
			}
			d.Loss = addTerm(d.Loss, d.A, t, d.Y[t])
		}
		d.Loss = addAdjoint(d.Loss, d.LH, h, d.LC, c)
	})
	if err != nil {
		return nil, err
	}
	targets := gorgonia.Nodes{d.WIH, d.WHH, d.B, d.WOut}
	if d.BOut != nil {
		targets = append(targets, d.BOut)
	}
	targets = append(targets, d.H0, d.C0)
	if d.Grads, err = gorgonia.Grad(d.Loss, targets...); err != nil {
		return nil, fmt.Errorf("graph: dense gradient: %w", err)
	}
	return d, nil
}

// adjointNode returns an input node for the adjoint of a final state of n
// units: a vector of n, which multiplies the state as w_out does (a single
// unit's state is a scalar in the graph).
func adjointNode(g *gorgonia.ExprGraph, n int, name string) *gorgonia.Node {
	return gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(n), gorgonia.WithName(name))
}

// addAdjoint returns loss + λ_h·h + λ_c·c.
func addAdjoint(loss, lh, h, lc, c *gorgonia.Node) *gorgonia.Node {
	loss = gorgonia.Must(gorgonia.Add(loss, gorgonia.Must(gorgonia.Mul(lh, h))))
	return gorgonia.Must(gorgonia.Add(loss, gorgonia.Must(gorgonia.Mul(lc, c))))
}

// addTerm returns loss + a[t]·y (y when loss is nil).
//
// The outputs are per-step scalars summed one by one on purpose: collecting
// h_1..h_n into one matrix with Concat and Reshape and multiplying by w_out
// once gives fewer nodes, but Gorgonia v0.9.18 then returns wrong gradients
// (zero for every cell parameter) from about 65 steps with H = 4.
func addTerm(loss, a *gorgonia.Node, t int, y *gorgonia.Node) *gorgonia.Node {
	term := gorgonia.Must(gorgonia.Mul(gorgonia.Must(gorgonia.Slice(a, gorgonia.S(t))), y))
	if loss == nil {
		return term
	}
	return gorgonia.Must(gorgonia.Add(loss, term))
}

// lstmCell applies the gates to the gate-major pre-activations pre (4n values)
// and returns the new (h, c) of n units given the previous cell state cPrev.
func lstmCell(pre, cPrev *gorgonia.Node, n int) (h, c *gorgonia.Node) {
	// Two activations of the whole vector and four slices make fewer nodes
	// than four slices and four activations.
	sig := sigmoid(pre)
	tanh := gorgonia.Must(gorgonia.Tanh(pre))
	gate := func(act *gorgonia.Node, q int) *gorgonia.Node {
		return gorgonia.Must(gorgonia.Slice(act, gorgonia.S(q*n, (q+1)*n)))
	}
	i, f, g, o := gate(sig, arch.GateI), gate(sig, arch.GateF), gate(tanh, arch.GateG), gate(sig, arch.GateO)
	c = gorgonia.Must(gorgonia.Add(elemMul(f, cPrev), elemMul(i, g)))
	h = elemMul(o, gorgonia.Must(gorgonia.Tanh(c)))
	return h, c
}

// sigmoid returns σ(a) computed as
//
//	σ(a) = (1 + tanh(a/2)) / 2
//
// which is the logistic function exactly. Gorgonia v0.9.18's own Sigmoid
// returns exactly 1 (and a zero derivative) for a > 19, where the true value
// is 1 − 5.6e-9: an error far above the 1e-10 the comparison demands.
func sigmoid(a *gorgonia.Node) *gorgonia.Node {
	half := gorgonia.NewConstant(0.5)
	t := gorgonia.Must(gorgonia.Tanh(gorgonia.Must(gorgonia.Mul(a, half))))
	return gorgonia.Must(gorgonia.Mul(gorgonia.Must(gorgonia.Add(t, gorgonia.NewConstant(1.0))), half))
}

// elemMul is the elementwise product a⊙b. Gorgonia slices a range of length one
// down to a scalar (a gate of a single unit), and its Mul of two vectors is the
// dot product, so the operation is chosen by shape.
func elemMul(a, b *gorgonia.Node) *gorgonia.Node {
	if a.IsScalar() || b.IsScalar() {
		return gorgonia.Must(gorgonia.Mul(a, b))
	}
	return gorgonia.Must(gorgonia.HadamardProd(a, b))
}

// Bind binds new values to every input node: the flat arch.Dense parameter
// vector params, the entering state h0, c0 (nil means zero), the window's
// inputs xs (Steps rows of m values) and the objective weights a (Steps
// values). Values are copied. Length mismatches panic.
func (d *Dense) Bind(params, h0, c0 []float64, xs [][]float64, a []float64) error {
	hid, m := d.Shape.Hidden, d.Shape.Inputs
	if len(xs) != d.Steps || len(a) != d.Steps {
		panic(fmt.Sprintf("graph: dense window of %d steps bound to %d inputs and %d weights", d.Steps, len(xs), len(a)))
	}
	if h0 == nil {
		h0 = make([]float64, hid)
	}
	if c0 == nil {
		c0 = make([]float64, hid)
	}
	if len(h0) != hid || len(c0) != hid {
		panic(fmt.Sprintf("graph: dense state has lengths %d, %d, want %d", len(h0), len(c0), hid))
	}
	for t, x := range xs {
		if len(x) != m {
			panic(fmt.Sprintf("graph: input %d has length %d, want %d", t, len(x), m))
		}
	}
	wih, whh, b, wout := d.Shape.Split(params)
	binds := []func() error{
		func() error { return letMatrix(d.WIH, 4*hid, m, wih) },
		func() error { return letMatrix(d.WHH, 4*hid, hid, whh) },
		func() error { return letVector(d.B, b) },
		func() error { return letVector(d.WOut, wout) },
		func() error { return letVector(d.H0, h0) },
		func() error { return letVector(d.C0, c0) },
		func() error { return letRows(d.X, withOne(xs), m+1) },
		func() error { return letVector(d.A, a) },
	}
	if d.BOut != nil {
		binds = append(binds, func() error { return gorgonia.Let(d.BOut, d.Shape.OutBiasOf(params)) })
	}
	binds = append(binds,
		func() error { return letVector(d.LH, make([]float64, hid)) },
		func() error { return letVector(d.LC, make([]float64, hid)) })
	for _, bind := range binds {
		if err := bind(); err != nil {
			return fmt.Errorf("graph: bind dense: %w", err)
		}
	}
	return nil
}

// Gradient returns the values of the gradient nodes after a run, as a fresh
// flat vector in the arch.Dense layout.
func (d *Dense) Gradient() ([]float64, error) {
	grad := make([]float64, 0, d.Shape.NumParams())
	for _, n := range d.Grads[:len(d.Grads)-2] {
		v, err := Floats(n)
		if err != nil {
			return nil, err
		}
		grad = append(grad, v...)
	}
	if len(grad) != d.Shape.NumParams() {
		return nil, fmt.Errorf("graph: dense gradient has %d values, want %d", len(grad), d.Shape.NumParams())
	}
	return grad, nil
}

// Outputs returns y_1..y_Steps after a run, as a fresh slice.
func (d *Dense) Outputs() ([]float64, error) { return scalars(d.Y) }

// BindAdjoint binds the adjoint (λ_h, λ_c) of the final state (H values
// each). Call it after Bind, which zeroes it.
func (d *Dense) BindAdjoint(lh, lc []float64) error {
	if len(lh) != d.Shape.Hidden || len(lc) != d.Shape.Hidden {
		panic(fmt.Sprintf("graph: dense adjoint has lengths %d, %d, want %d", len(lh), len(lc), d.Shape.Hidden))
	}
	if err := letVector(d.LH, lh); err != nil {
		return fmt.Errorf("graph: bind dense adjoint: %w", err)
	}
	if err := letVector(d.LC, lc); err != nil {
		return fmt.Errorf("graph: bind dense adjoint: %w", err)
	}
	return nil
}

// StateGradient returns ∂L/∂h_0 and ∂L/∂c_0 after a run (H values each).
func (d *Dense) StateGradient() (dh0, dc0 []float64, err error) {
	n := len(d.Grads)
	if dh0, err = Floats(d.Grads[n-2]); err != nil {
		return nil, nil, err
	}
	if dc0, err = Floats(d.Grads[n-1]); err != nil {
		return nil, nil, err
	}
	return dh0, dc0, nil
}

// scalars reads one value from each of the scalar nodes ns.
func scalars(ns []*gorgonia.Node) ([]float64, error) {
	ys := make([]float64, len(ns))
	for t, n := range ns {
		v, err := Floats(n)
		if err != nil {
			return nil, err
		}
		if len(v) != 1 {
			return nil, fmt.Errorf("graph: node %s holds %d values, want a scalar", n.Name(), len(v))
		}
		ys[t] = v[0]
	}
	return ys, nil
}

// withOne returns the rows of xs, each followed by a 1.
func withOne(xs [][]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for t, x := range xs {
		out[t] = append(append(make([]float64, 0, len(x)+1), x...), 1)
	}
	return out
}
