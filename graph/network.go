package graph

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/ccn-go/ccn/arch"
)

// Network is a Columnar, Constructive or CCN network (arch.Network) unrolled over
// Steps steps from an entering state (h_0, c_0) held constant (zero unless
// BindState sets it: the state of the frozen columns carried over a stage
// change). Within step t the stages run in order; the
// u columns of stage s read the inputs and the normalized current-step features
// of every earlier stage, and the head reads every feature:
//
//	in_s = [x_t, ĥ_{stage 0}, …, ĥ_{stage s-1}]
//	a    = W_s·in_s + U_s⊙[h;h;h;h] + b_s           gate-major, 4u values
//	c, h = LSTM gates of a as in Dense (one scalar unit per column)
//	ĥ_k  = (h_k - μ_{t,k})·inv_{t,k}                 inv = 1/max(ε, σ); ĥ = h if Norm is off
//	y_t  = Σ_k w_k·ĥ_k + b
//	L    = Σ_t a_t·y_t + λ_h·h_L + λ_c·c_L       (h_L, c_L: the learning stage's final state)
//
// A stage's columns are stacked gate-major: row q·u+j of W_s is W_q of column j,
// and U_s, b_s are ordered the same way; Bind and Gradient translate from and to
// the per-column blocks of the arch layout. The learning stage's W, U, b and the
// head (w, b) are the gradient targets; frozen stages and the statistics μ, inv
// are constants. The graph also gives the gradient with respect to the
// learning stage's entering state and takes the adjoint (λ_h, λ_c) of its final
// state (zero unless BindAdjoint sets it), so that windows chained from the
// last to the first compute the gradient over a longer trajectory (only the
// learning stage's state depends on the learnable parameters).
type Network struct {
	Top   arch.Network
	Steps int

	Graph *gorgonia.ExprGraph

	// Per stage: W (4u×m_s), U (4u), B (4u), and the entering state H0, C0
	// (u, constants). The last stage's W, U, B are gradient targets.
	W, U, B, H0, C0 []*gorgonia.Node
	// Head weights (one per feature) and head bias (scalar): gradient targets.
	Head, HeadBias *gorgonia.Node
	// Constants: inputs (Steps×m), objective weights (Steps) and, when Norm is
	// enabled, the statistics Mu and Inv (Steps×(Features+1), the last column unused); nil otherwise.
	X, A, Mu, Inv *gorgonia.Node
	// The adjoint of the learning stage's final state (u values each).
	LH, LC *gorgonia.Node

	// Opts are the graph's options.
	Opts NetworkOpts
	// Cut (Opts.Cut only): the normalized features ĥ that the columns read
	// (Steps×(Features+1), the last column unused), constants; the head
	// reads the graph's own.
	Cut *gorgonia.Node

	// Y[t-1] is the scalar y_t; Loss is L.
	Y    []*gorgonia.Node
	Loss *gorgonia.Node
	// Grads are ∂L/∂W, ∂L/∂U, ∂L/∂B of the learning stage, ∂L/∂w, ∂L/∂b,
	// then ∂L/∂h_0, ∂L/∂c_0 of the learning stage.
	Grads gorgonia.Nodes
}

// NetworkOpts are options of a Network graph beyond the default (the
// gradient of the learnable vector).
type NetworkOpts struct {
	// AllStages makes every stage's W, U, b gradient targets, the frozen
	// ones included: Grads are then W, U, B of stage 0, 1, …, then ∂L/∂w,
	// ∂L/∂b, and the learning stage's entering state is not a target
	// (FullGradient; StateGradient and Gradient are not available).
	AllStages bool
	// Cut makes every column read the features of earlier stages from the
	// constant Cut (bound with BindCut to the values the graph computes)
	// while the head reads the graph's own: the gradient with respect to a
	// column's parameters is then the one along its own recurrence and head
	// weight only, the paths through later columns cut.
	Cut bool
}

// NewNetwork builds the graph of top unrolled over steps ≥ 1 steps, together
// with the symbolic gradient of L.
func NewNetwork(top arch.Network, steps int) (*Network, error) {
	return NewNetworkWith(top, steps, NetworkOpts{})
}

// NewNetworkWith is NewNetwork with options.
func NewNetworkWith(top arch.Network, steps int, opts NetworkOpts) (*Network, error) {
	top.Validate()
	if steps < 1 {
		panic(fmt.Sprintf("graph: network window of %d steps", steps))
	}
	g := gorgonia.NewGraph()
	numStages, features := top.NumStages(), top.Features()
	n := &Network{
		Top:      top,
		Steps:    steps,
		Graph:    g,
		W:        make([]*gorgonia.Node, numStages),
		U:        make([]*gorgonia.Node, numStages),
		B:        make([]*gorgonia.Node, numStages),
		H0:       make([]*gorgonia.Node, numStages),
		C0:       make([]*gorgonia.Node, numStages),
		Head:     gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(features), gorgonia.WithName("net_head_w")),
		HeadBias: gorgonia.NewScalar(g, tensor.Float64, gorgonia.WithName("net_head_b")),
		X:        gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, top.Inputs), gorgonia.WithName("net_x")),
		A:        gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(steps), gorgonia.WithName("net_a")),
		Y:        make([]*gorgonia.Node, steps),
		Opts:     opts,
	}
	if opts.Cut {
		n.Cut = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, features+1), gorgonia.WithName("net_cut"))
	}
	uL := top.LearningColumns()
	n.LH, n.LC = adjointNode(g, uL, "net_lambda_h"), adjointNode(g, uL, "net_lambda_c")
	for s, u := range top.Stages {
		name := func(what string) gorgonia.NodeConsOpt {
			return gorgonia.WithName(fmt.Sprintf("net_stage%d_%s", s, what))
		}
		n.W[s] = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(4*u, top.ColumnInputs(s)), name("W"))
		n.U[s] = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4*u), name("U"))
		n.B[s] = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(4*u), name("b"))
		n.H0[s] = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(u), name("h_0"))
		n.C0[s] = gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(u), name("c_0"))
	}
	if top.Norm.Enabled {
		// One spare column that nothing reads: Gorgonia v0.9.18 panics at run
		// time when slicing a row of a T×1 matrix (a single feature).
		n.Mu = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, features+1), gorgonia.WithName("net_mu"))
		n.Inv = gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(steps, features+1), gorgonia.WithName("net_inv"))
	}
	err := build("network", func() {
		h := append([]*gorgonia.Node(nil), n.H0...)
		c := append([]*gorgonia.Node(nil), n.C0...)
		for t := 0; t < steps; t++ {
			x := gorgonia.Must(gorgonia.Slice(n.X, gorgonia.S(t)))
			in := []*gorgonia.Node{x}
			for s, u := range top.Stages {
				input := x
				switch {
				case s > 0 && opts.Cut:
					cut := gorgonia.Must(gorgonia.Slice(n.Cut, gorgonia.S(t), gorgonia.S(0, top.FirstFeature(s))))
					if top.FirstFeature(s) == 1 { // a one-element slice is a scalar
						cut = gorgonia.Must(gorgonia.Reshape(cut, tensor.Shape{1}))
					}
					input = gorgonia.Must(gorgonia.Concat(0, x, cut))
				case s > 0:
					input = gorgonia.Must(gorgonia.Concat(0, in...))
				}
				rec := gorgonia.Must(gorgonia.HadamardProd(n.U[s], gorgonia.Must(gorgonia.Concat(0, h[s], h[s], h[s], h[s]))))
				pre := gorgonia.Must(gorgonia.Add(
					gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Mul(n.W[s], input)), rec)),
					n.B[s]))
				h[s], c[s] = lstmCell(pre, c[s], u)
				in = append(in, n.normalize(h[s], t, top.FirstFeature(s), u))
			}
			all := in[1]
			if len(in) > 2 {
				all = gorgonia.Must(gorgonia.Concat(0, in[1:]...))
			}
			n.Y[t] = gorgonia.Must(gorgonia.Add(gorgonia.Must(gorgonia.Mul(n.Head, all)), n.HeadBias))
			n.Loss = addTerm(n.Loss, n.A, t, n.Y[t])
		}
		l := top.Learning()
		n.Loss = addAdjoint(n.Loss, n.LH, h[l], n.LC, c[l])
	})
	if err != nil {
		return nil, err
	}
	l := top.Learning()
	targets := gorgonia.Nodes{n.W[l], n.U[l], n.B[l], n.Head, n.HeadBias, n.H0[l], n.C0[l]}
	if opts.AllStages {
		targets = nil
		for s := range top.Stages {
			targets = append(targets, n.W[s], n.U[s], n.B[s])
		}
		targets = append(targets, n.Head, n.HeadBias)
	}
	if n.Grads, err = gorgonia.Grad(n.Loss, targets...); err != nil {
		return nil, fmt.Errorf("graph: network gradient: %w", err)
	}
	return n, nil
}

// normalize returns ĥ of the u features first..first+u-1 at step t (0-based).
func (n *Network) normalize(h *gorgonia.Node, t, first, u int) *gorgonia.Node {
	if n.Mu == nil {
		return h
	}
	cols := gorgonia.S(first, first+u)
	mu := gorgonia.Must(gorgonia.Slice(n.Mu, gorgonia.S(t), cols))
	inv := gorgonia.Must(gorgonia.Slice(n.Inv, gorgonia.S(t), cols))
	return elemMul(gorgonia.Must(gorgonia.Sub(h, mu)), inv)
}

// Bind binds new values to every input node: the frozen and learnable vectors
// in the arch.Network layout, the inputs xs (Steps rows of Inputs values), the
// objective weights a (Steps values) and, when Norm is enabled, the statistics
// mean[t][k] = μ_{t+1,k} and scale[t][k] = max(ε, σ_{t+1,k}) (ignored
// otherwise). The entering state is zero; BindState changes it afterwards.
// Values are copied. Length mismatches panic.
func (n *Network) Bind(frozen, learnable []float64, xs [][]float64, a []float64, mean, scale [][]float64) error {
	top := n.Top
	if len(frozen) != top.NumFrozen() || len(learnable) != top.NumLearnable() {
		panic(fmt.Sprintf("graph: network vectors have lengths %d, %d, want %d, %d",
			len(frozen), len(learnable), top.NumFrozen(), top.NumLearnable()))
	}
	if len(xs) != n.Steps || len(a) != n.Steps {
		panic(fmt.Sprintf("graph: network window of %d steps bound to %d inputs and %d weights", n.Steps, len(xs), len(a)))
	}
	var binds []func() error
	for s, u := range top.Stages {
		m := top.ColumnInputs(s)
		w, us, b := make([]float64, 4*u*m), make([]float64, 4*u), make([]float64, 4*u)
		for j := 0; j < u; j++ {
			block := top.Block(frozen, learnable, s, j)
			for q := 0; q < arch.NumGates; q++ {
				row := q*u + j
				copy(w[row*m:(row+1)*m], block[arch.ColIdxW(m, q, 0):][:m])
				us[row] = block[arch.ColIdxU(m, q)]
				b[row] = block[arch.ColIdxB(m, q)]
			}
		}
		s, u, m := s, u, m
		binds = append(binds,
			func() error { return letMatrix(n.W[s], 4*u, m, w) },
			func() error { return letVector(n.U[s], us) },
			func() error { return letVector(n.B[s], b) },
			func() error { return letVector(n.H0[s], make([]float64, u)) },
			func() error { return letVector(n.C0[s], make([]float64, u)) },
		)
	}
	binds = append(binds,
		func() error { return letVector(n.Head, learnable[top.OffHead():top.OffHeadBias()]) },
		func() error { return gorgonia.Let(n.HeadBias, learnable[top.OffHeadBias()]) },
		func() error { return letRows(n.X, xs, top.Inputs) },
		func() error { return letVector(n.A, a) },
		func() error { return letVector(n.LH, make([]float64, top.LearningColumns())) },
		func() error { return letVector(n.LC, make([]float64, top.LearningColumns())) },
	)
	if n.Mu != nil {
		if len(mean) != n.Steps || len(scale) != n.Steps {
			panic(fmt.Sprintf("graph: network window of %d steps bound to %d, %d statistics", n.Steps, len(mean), len(scale)))
		}
		F := top.Features()
		mu := make([][]float64, n.Steps)
		inv := make([][]float64, n.Steps)
		for t, row := range scale {
			if len(row) != F || len(mean[t]) != F {
				panic(fmt.Sprintf("graph: statistics row %d has %d, %d values, want %d", t, len(mean[t]), len(row), F))
			}
			mu[t] = append(append(make([]float64, 0, F+1), mean[t]...), 0)
			inv[t] = make([]float64, F+1)
			for k, v := range row {
				inv[t][k] = 1 / v
			}
		}
		binds = append(binds,
			func() error { return letRows(n.Mu, mu, F+1) },
			func() error { return letRows(n.Inv, inv, F+1) },
		)
	}
	for _, bind := range binds {
		if err := bind(); err != nil {
			return fmt.Errorf("graph: bind network: %w", err)
		}
	}
	return nil
}

// BindState binds the entering state: h0[k] and c0[k] of every feature k
// (Features values each; nil means zero). Call it after Bind, which zeroes it.
func (n *Network) BindState(h0, c0 []float64) error {
	F := n.Top.Features()
	if h0 == nil {
		h0 = make([]float64, F)
	}
	if c0 == nil {
		c0 = make([]float64, F)
	}
	if len(h0) != F || len(c0) != F {
		panic(fmt.Sprintf("graph: network state has lengths %d, %d, want %d", len(h0), len(c0), F))
	}
	for s, u := range n.Top.Stages {
		lo := n.Top.FirstFeature(s)
		if err := letVector(n.H0[s], h0[lo:lo+u]); err != nil {
			return fmt.Errorf("graph: bind network state: %w", err)
		}
		if err := letVector(n.C0[s], c0[lo:lo+u]); err != nil {
			return fmt.Errorf("graph: bind network state: %w", err)
		}
	}
	return nil
}

// BindAdjoint binds the adjoint (λ_h, λ_c) of the learning stage's final
// state (LearningColumns values each). Call it after Bind, which zeroes it.
func (n *Network) BindAdjoint(lh, lc []float64) error {
	u := n.Top.LearningColumns()
	if len(lh) != u || len(lc) != u {
		panic(fmt.Sprintf("graph: network adjoint has lengths %d, %d, want %d", len(lh), len(lc), u))
	}
	if err := letVector(n.LH, lh); err != nil {
		return fmt.Errorf("graph: bind network adjoint: %w", err)
	}
	if err := letVector(n.LC, lc); err != nil {
		return fmt.Errorf("graph: bind network adjoint: %w", err)
	}
	return nil
}

// StateGradient returns ∂L/∂h_0 and ∂L/∂c_0 of the learning stage after a
// run (LearningColumns values each).
func (n *Network) StateGradient() (dh0, dc0 []float64, err error) {
	if n.Opts.AllStages {
		panic("graph: StateGradient of an AllStages network graph")
	}
	if dh0, err = Floats(n.Grads[5]); err != nil {
		return nil, nil, err
	}
	if dc0, err = Floats(n.Grads[6]); err != nil {
		return nil, nil, err
	}
	return dh0, dc0, nil
}

// Gradient returns the values of the gradient nodes after a run, as a fresh
// vector in the learnable layout of arch.Network.
func (n *Network) Gradient() ([]float64, error) {
	if n.Opts.AllStages {
		panic("graph: Gradient of an AllStages network graph (FullGradient)")
	}
	top := n.Top
	grad := make([]float64, top.NumLearnable())
	if err := n.scatterStage(top.Learning(), nil, grad, n.Grads[:3]); err != nil {
		return nil, err
	}
	if err := n.scatterHead(grad, n.Grads[3], n.Grads[4]); err != nil {
		return nil, err
	}
	return grad, nil
}

// BindCut binds the features that the columns of a Cut graph read:
// features[t][k] = ĥ_{t+1,k} for every feature k (Features values per step).
// Call it after Bind.
func (n *Network) BindCut(features [][]float64) error {
	if !n.Opts.Cut {
		panic("graph: BindCut of a network graph without Cut")
	}
	F := n.Top.Features()
	if len(features) != n.Steps {
		panic(fmt.Sprintf("graph: %d rows of cut features for a window of %d steps", len(features), n.Steps))
	}
	rows := make([][]float64, n.Steps)
	for t, row := range features {
		if len(row) != F {
			panic(fmt.Sprintf("graph: cut features row %d has %d values, want %d", t, len(row), F))
		}
		rows[t] = append(append(make([]float64, 0, F+1), row...), 0)
	}
	if err := letRows(n.Cut, rows, F+1); err != nil {
		return fmt.Errorf("graph: bind cut features: %w", err)
	}
	return nil
}

// FullGradient returns, after a run of an AllStages graph, the gradient as
// fresh vectors in the frozen and learnable layouts of arch.Network.
func (n *Network) FullGradient() (frozen, learnable []float64, err error) {
	if !n.Opts.AllStages {
		panic("graph: FullGradient of a network graph without AllStages")
	}
	top := n.Top
	frozen, learnable = make([]float64, top.NumFrozen()), make([]float64, top.NumLearnable())
	for s := range top.Stages {
		if err := n.scatterStage(s, frozen, learnable, n.Grads[3*s:3*s+3]); err != nil {
			return nil, nil, err
		}
	}
	k := 3 * top.NumStages()
	if err := n.scatterHead(learnable, n.Grads[k], n.Grads[k+1]); err != nil {
		return nil, nil, err
	}
	return frozen, learnable, nil
}

// scatterStage writes the values of the gradient nodes W, U, b of stage s
// (gate-major, grads[0:3]) into the per-column blocks of the frozen and
// learnable vectors (arch.Network.Block).
func (n *Network) scatterStage(s int, frozen, learnable []float64, grads []*gorgonia.Node) error {
	top := n.Top
	u, m := top.Stages[s], top.ColumnInputs(s)
	var vals [3][]float64
	for i := range vals {
		v, err := Floats(grads[i])
		if err != nil {
			return err
		}
		vals[i] = v
	}
	w, us, b := vals[0], vals[1], vals[2]
	if len(w) != 4*u*m || len(us) != 4*u || len(b) != 4*u {
		return fmt.Errorf("graph: stage %d gradient has unexpected sizes %d, %d, %d", s, len(w), len(us), len(b))
	}
	for j := 0; j < u; j++ {
		block := top.Block(frozen, learnable, s, j)
		for q := 0; q < arch.NumGates; q++ {
			row := q*u + j
			copy(block[arch.ColIdxW(m, q, 0):][:m], w[row*m:(row+1)*m])
			block[arch.ColIdxU(m, q)] = us[row]
			block[arch.ColIdxB(m, q)] = b[row]
		}
	}
	return nil
}

// scatterHead writes the values of the head's gradient nodes (weights, bias)
// into the learnable vector.
func (n *Network) scatterHead(learnable []float64, headGrad, biasGrad *gorgonia.Node) error {
	top := n.Top
	head, err := Floats(headGrad)
	if err != nil {
		return err
	}
	bias, err := Floats(biasGrad)
	if err != nil {
		return err
	}
	if len(head) != top.Features() || len(bias) != 1 {
		return fmt.Errorf("graph: head gradient has unexpected sizes %d, %d", len(head), len(bias))
	}
	copy(learnable[top.OffHead():top.OffHeadBias()], head)
	learnable[top.OffHeadBias()] = bias[0]
	return nil
}

// Outputs returns y_1..y_Steps after a run, as a fresh slice.
func (n *Network) Outputs() ([]float64, error) { return scalars(n.Y) }
