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
	// MaxUnroll is the longest window one graph unrolls; a longer trajectory
	// is computed in windows of at most MaxUnroll steps, from the last to the
	// first, each window's gradient with respect to its entering state
	// becoming the adjoint of the previous window's final state: the same
	// gradient, exactly, without compiling a long graph (compiling costs time
	// quadratic in a graph's node count). 0 means DefaultMaxUnroll.
	MaxUnroll int

	dense   map[denseKey]*denseRun
	network map[string]*networkRun
	linear  map[string]*linearRun
	rtu     map[rtuKey]*rtuRun
}

// DefaultMaxUnroll is the default of Reference.MaxUnroll. Compiling dominates
// the checks, and small graphs compile fastest: ccn verify took 28.9 s of CPU
// with windows of 2 steps, 31.4 s with 5 (64 s and 78 s wall at load ≈ 33).
const DefaultMaxUnroll = 2

// chunks splits n steps into windows of at most max steps, the first one
// taking the remainder so that the others share one graph; it returns the
// windows' first steps and n.
func chunks(n, max int) []int {
	if max <= 0 {
		max = DefaultMaxUnroll
	}
	first := n % max
	if first == 0 {
		first = min(n, max)
	}
	bounds := []int{0}
	for b := first; b < n; b += max {
		bounds = append(bounds, b)
	}
	return append(bounds, n)
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
		linear:  make(map[string]*linearRun),
		rtu:     make(map[rtuKey]*rtuRun),
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

// window returns the outputs of len(xs) steps from (h0, c0) (nil: zero) and
// the gradient of Σ a_t·y_t with (h0, c0) held constant, in windows of at most
// MaxUnroll steps (see MaxUnroll).
func (r *Reference) window(shape arch.Dense, params, h0, c0 []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	bounds := chunks(len(xs), r.MaxUnroll)
	_, hs, cs := Forward(shape, params, h0, c0, xs)
	ys = make([]float64, len(xs))
	grad = make([]float64, shape.NumParams())
	lh, lc := make([]float64, shape.Hidden), make([]float64, shape.Hidden)
	for i := len(bounds) - 2; i >= 0; i-- {
		lo, hi := bounds[i], bounds[i+1]
		dr, err := r.denseGraph(shape, hi-lo)
		if err != nil {
			return nil, nil, err
		}
		if err := dr.g.Bind(params, hs[lo], cs[lo], xs[lo:hi], a[lo:hi]); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if err := dr.g.BindAdjoint(lh, lc); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if err := run(dr.vm); err != nil {
			return nil, nil, err
		}
		if err := collectWindow(dr.g, ys[lo:hi], grad); err != nil {
			return nil, nil, err
		}
		if lh, lc, err = dr.g.StateGradient(); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
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
	a = objective(a, len(xs))
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
	return r.NetworkFrom(top, frozen, learnable, nil, xs, a)
}

// NetworkFrom is Network entered from the state start (nil: the zero state)
// instead of the zero state: the columns' h and c and the normalization
// statistics continue from start (reference.NetState), and the entering
// state is a constant for the gradient. This is the network after a stage
// change: the frozen columns carry their state and statistics over, the new
// learning columns start from zero (see NetState.Grow), and since their
// entering state does not depend on their parameters the gradient is exact.
func (r *Reference) NetworkFrom(top arch.Network, frozen, learnable []float64, start *NetState, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	top.Validate()
	if len(xs) == 0 {
		panic("reference: no inputs")
	}
	a = objective(a, len(xs))
	bounds := chunks(len(xs), r.MaxUnroll)
	starts := make([]*NetState, len(bounds)-1)
	stats := make([]*Stats, len(bounds)-1)
	st := start
	for i := range starts {
		starts[i] = st
		_, stats[i], st = NetworkForwardFrom(top, frozen, learnable, st, xs[bounds[i]:bounds[i+1]], nil)
	}
	ys = make([]float64, len(xs))
	grad = make([]float64, top.NumLearnable())
	u := top.LearningColumns()
	lh, lc := make([]float64, u), make([]float64, u)
	for i := len(bounds) - 2; i >= 0; i-- {
		lo, hi := bounds[i], bounds[i+1]
		nr, err := r.networkGraph(top, hi-lo, graph.NetworkOpts{})
		if err != nil {
			return nil, nil, err
		}
		var mean, scale [][]float64
		if stats[i] != nil {
			mean, scale = stats[i].Mean, stats[i].Scale
		}
		if err := nr.g.Bind(frozen, learnable, xs[lo:hi], a[lo:hi], mean, scale); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if starts[i] != nil {
			if err := nr.g.BindState(starts[i].H, starts[i].C); err != nil {
				return nil, nil, fmt.Errorf("reference: %w", err)
			}
		}
		if err := nr.g.BindAdjoint(lh, lc); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if err := run(nr.vm); err != nil {
			return nil, nil, err
		}
		if err := collectWindow(nr.g, ys[lo:hi], grad); err != nil {
			return nil, nil, err
		}
		if lh, lc, err = nr.g.StateGradient(); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
	}
	return ys, grad, nil
}

// objective returns the weights a of L = Σ_t a[t-1]·y_t over T steps: a
// itself, or for a nil a the weights of L = y_T. A length other than T
// panics.
func objective(a []float64, T int) []float64 {
	if a == nil {
		a = make([]float64, T)
		a[T-1] = 1
	}
	if len(a) != T {
		panic(fmt.Sprintf("reference: %d objective weights for %d steps", len(a), T))
	}
	return a
}

// networkGraph returns the cached graph of top over steps steps with opts,
// building and compiling it the first time.
func (r *Reference) networkGraph(top arch.Network, steps int, opts graph.NetworkOpts) (*networkRun, error) {
	key := networkKey(top, steps)
	if opts != (graph.NetworkOpts{}) {
		key += fmt.Sprintf(" %+v", opts)
	}
	if nr, ok := r.network[key]; ok {
		return nr, nil
	}
	g, err := graph.NewNetworkWith(top, steps, opts)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	nr := &networkRun{g: g, vm: newMachine(g.Graph, append(append(gorgonia.Nodes(nil), g.Y...), g.Grads...))}
	r.network[key] = nr
	return nr, nil
}

// windowGraph is an unrolled graph after a run: its predictions over the
// window and the gradient of the window's objective.
type windowGraph interface {
	Outputs() ([]float64, error)
	Gradient() ([]float64, error)
}

// collectWindow copies the window's predictions into ys (one per step) and
// adds its gradient into grad: the objective of a chunked trajectory is the
// sum of its windows'.
func collectWindow(g windowGraph, ys, grad []float64) error {
	out, err := g.Outputs()
	if err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	copy(ys, out)
	gw, err := g.Gradient()
	if err != nil {
		return fmt.Errorf("reference: %w", err)
	}
	for k, v := range gw {
		grad[k] += v
	}
	return nil
}
