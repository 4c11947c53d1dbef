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
// graph unrolls the whole trajectory (graph.RTU). With shape.Norm enabled the
// graph runs twice: once for the features, from which FeatureStats computes
// the statistics, then with those statistics bound as constants (the features
// do not depend on them: the normalization sits outside the recurrence).
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
		keep := append(append(gorgonia.Nodes(nil), g.Y...), g.Grads...)
		if shape.Norm.Enabled {
			keep = append(keep, g.H...)
		}
		rr = &rtuRun{g: g, vm: newMachine(g.Graph, keep)}
		r.rtu[key] = rr
	}
	var mean, inv [][]float64
	if shape.Norm.Enabled {
		if err := rr.g.Bind(params, xs, a, nil, nil); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if err := run(rr.vm); err != nil {
			return nil, nil, err
		}
		hs, err := rr.g.Features()
		if err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		mean, inv = FeatureStats(shape.Norm, hs)
	}
	if err := rr.g.Bind(params, xs, a, mean, inv); err != nil {
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
