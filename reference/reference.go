package reference

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/graph"
)

// Reference computes ground-truth gradients, caching one compiled graph per
// dense shape and window length, and per network topology and length.
//
// A Reference is not safe for concurrent use: Gorgonia graphs hold their values
// in their nodes. Use one Reference per goroutine.
type Reference struct {
	dense   map[denseKey]*denseRun
	network map[string]*networkRun
}

type denseKey struct {
	shape arch.Dense
	steps int
}

type denseRun struct {
	g  *graph.Dense
	vm gorgonia.VM
}

type networkRun struct {
	g  *graph.Network
	vm gorgonia.VM
}

// New returns a Reference with an empty graph cache.
func New() *Reference {
	return &Reference{
		dense:   make(map[denseKey]*denseRun),
		network: make(map[string]*networkRun),
	}
}

// newMachine compiles a tape machine for g that stores copies of the values
// of watch (outputs and gradients): without TraceExec a node's value may be a
// register that later instructions of the same run overwrite.
func newMachine(g *gorgonia.ExprGraph, watch []*gorgonia.Node) gorgonia.VM {
	list := make([]interface{}, len(watch))
	for i, n := range watch {
		list[i] = n
	}
	return gorgonia.NewTapeMachine(g, gorgonia.TraceExec(), gorgonia.WithWatchlist(list...))
}

func run(vm gorgonia.VM) error {
	vm.Reset()
	if err := vm.RunAll(); err != nil {
		return fmt.Errorf("reference: run graph: %w", err)
	}
	return nil
}

func (r *Reference) denseGraph(shape arch.Dense, steps int) (*denseRun, error) {
	key := denseKey{shape, steps}
	if dr, ok := r.dense[key]; ok {
		return dr, nil
	}
	g, err := graph.NewDense(shape, steps)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	dr := &denseRun{g: g, vm: newMachine(g.Graph, append(append(gorgonia.Nodes(nil), g.Y...), g.Grads...))}
	r.dense[key] = dr
	return dr, nil
}

// window runs the dense graph of len(xs) steps from (h0, c0) with weights a
// and returns the window's outputs and the gradient of Σ a_t·y_t.
func (r *Reference) window(shape arch.Dense, params, h0, c0 []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	dr, err := r.denseGraph(shape, len(xs))
	if err != nil {
		return nil, nil, err
	}
	if err := dr.g.Bind(params, h0, c0, xs, a); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if err := run(dr.vm); err != nil {
		return nil, nil, err
	}
	if ys, err = dr.g.Outputs(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if grad, err = dr.g.Gradient(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	return ys, grad, nil
}

// Dense returns y_1..y_T and the full-BPTT gradient, over the flat arch.Dense
// parameter vector, of
//
//	L = Σ_t a[t-1]·y_t        (a nil means L = y_T)
//
// from h_0 = c_0 = 0, T = len(xs) ≥ 1. Length mismatches panic.
func (r *Reference) Dense(shape arch.Dense, params []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	shape.Validate()
	checkDense(shape, params, xs)
	if a == nil {
		a = make([]float64, len(xs))
		a[len(a)-1] = 1
	}
	if len(a) != len(xs) {
		panic(fmt.Sprintf("reference: %d objective weights for %d steps", len(a), len(xs)))
	}
	return r.window(shape, params, nil, nil, xs, a)
}

// DenseTruncated returns y_1..y_t and the k-truncated gradient of y_t (t is
// 1-based, 1 ≤ t ≤ len(xs)) over the flat arch.Dense parameter vector: the
// gradient of y_t through the last min(k, t) steps only, the state
// (h_{t-k}, c_{t-k}) entering the window held constant (docs/equations.md, T-BPTT window). k = 0 or
// k ≥ t is full BPTT. Length mismatches panic.
//
// Every call for one k runs the same graph of n = min(k, len(xs)) steps
// (len(xs) if k = 0), so that a sweep over t builds one graph: for t ≥ n the
// window is steps t-n+1..t, entered from the state of the plain forward pass;
// for t < n it is steps 1..n from the zero state, and the weights a = e_t make
// the steps after t contribute nothing, which is full BPTT of y_t. ys[:start]
// come from the plain forward pass, the rest from the graph.
func (r *Reference) DenseTruncated(shape arch.Dense, params []float64, xs [][]float64, t, k int) (ys, grad []float64, err error) {
	shape.Validate()
	checkDense(shape, params, xs)
	if t < 1 || t > len(xs) || k < 0 {
		panic(fmt.Sprintf("reference: truncated gradient of step %d with k=%d over %d steps", t, k, len(xs)))
	}
	n := len(xs)
	if k > 0 && k < n {
		n = k
	}
	start := max(0, t-n)
	before, hs, cs := Forward(shape, params, nil, nil, xs[:start])
	a := make([]float64, n)
	a[t-1-start] = 1
	win, grad, err := r.window(shape, params, hs[start], cs[start], xs[start:start+n], a)
	if err != nil {
		return nil, nil, err
	}
	return append(before, win[:t-start]...), grad, nil
}

func checkDense(shape arch.Dense, params []float64, xs [][]float64) {
	if len(params) != shape.NumParams() {
		panic(fmt.Sprintf("reference: dense parameters have length %d, want %d", len(params), shape.NumParams()))
	}
	if len(xs) == 0 {
		panic("reference: no inputs")
	}
	for t, x := range xs {
		if len(x) != shape.Inputs {
			panic(fmt.Sprintf("reference: input %d has length %d, want %d", t, len(x), shape.Inputs))
		}
	}
}

func networkKey(top arch.Network, steps int) string {
	return fmt.Sprintf("m=%d stages=%v norm=%t T=%d", top.Inputs, top.Stages, top.Norm.Enabled, steps)
}

// Network returns y_1..y_T and the gradient, over the learnable vector of the
// arch.Network layout, of
//
//	L = Σ_t a[t-1]·y_t        (a nil means L = y_T)
//
// with the frozen vector and the normalization statistics held constant; the
// statistics (μ_t and max(ε, σ_t) per feature and step) come from the plain
// forward pass NetworkForward. T = len(xs) ≥ 1. Length mismatches panic.
func (r *Reference) Network(top arch.Network, frozen, learnable []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	top.Validate()
	if len(xs) == 0 {
		panic("reference: no inputs")
	}
	if a == nil {
		a = make([]float64, len(xs))
		a[len(a)-1] = 1
	}
	if len(a) != len(xs) {
		panic(fmt.Sprintf("reference: %d objective weights for %d steps", len(a), len(xs)))
	}
	_, stats := NetworkForward(top, frozen, learnable, xs, nil)
	key := networkKey(top, len(xs))
	nr, ok := r.network[key]
	if !ok {
		g, err := graph.NewNetwork(top, len(xs))
		if err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		nr = &networkRun{g: g, vm: newMachine(g.Graph, append(append(gorgonia.Nodes(nil), g.Y...), g.Grads...))}
		r.network[key] = nr
	}
	var mean, scale [][]float64
	if stats != nil {
		mean, scale = stats.Mean, stats.Scale
	}
	if err := nr.g.Bind(frozen, learnable, xs, a, mean, scale); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if err := run(nr.vm); err != nil {
		return nil, nil, err
	}
	if ys, err = nr.g.Outputs(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if grad, err = nr.g.Gradient(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	return ys, grad, nil
}
