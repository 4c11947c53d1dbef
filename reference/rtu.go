package reference

import (
	"fmt"

	"gorgonia.org/gorgonia"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/graph"
)

type rtuKey struct {
	shape arch.RTU
	steps int
}

type rtuRun struct {
	g  *graph.RTU
	vm gorgonia.VM
}

// RTU returns the predictions y_1..y_T of the RTU layer of shape with the flat
// parameter vector params on the inputs xs (from the zero state) and the full
// BPTT gradient of Σ_t a_t·y_t; a = nil means the gradient of y_T alone. One
// graph unrolls the whole trajectory (graph.RTU; shape.Inputs ≥ 2).
func (r *Reference) RTU(shape arch.RTU, params []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	T := len(xs)
	if a == nil {
		a = make([]float64, T)
		a[T-1] = 1
	}
	key := rtuKey{shape, T}
	rr, ok := r.rtu[key]
	if !ok {
		g, err := graph.NewRTU(shape, T)
		if err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		rr = &rtuRun{g: g, vm: newMachine(g.Graph, append(append(gorgonia.Nodes(nil), g.Y...), g.Grads...))}
		r.rtu[key] = rr
	}
	if err := rr.g.Bind(params, xs, a); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if err := run(rr.vm); err != nil {
		return nil, nil, err
	}
	if ys, err = rr.g.Outputs(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	if grad, err = rr.g.Gradient(); err != nil {
		return nil, nil, fmt.Errorf("reference: %w", err)
	}
	return ys, grad, nil
}
