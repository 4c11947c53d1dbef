package reference

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/graph"
)

// NetworkAll returns y_1..y_T and the gradient of
//
//	L = Σ_t a[t-1]·y_t        (a nil means L = y_T)
//
// with respect to every parameter of the network, frozen and learnable
// (arch.Network layouts), from the zero state, the normalization statistics
// held constant as in Network. With cut false it is the exact gradient.
// With cut true every column reads the earlier stages' features as
// constants (their values on this trajectory) while the head reads them
// live: a column's gradient is then the one along its own recurrence and
// head weight only, which is what a network that keeps each frozen column's
// own traces computes (forward.Network.FrozenGrad); the learnable part is
// the same either way. Unlike Network, the trajectory is one graph of
// len(xs) steps (compiling costs time quadratic in its length): keep it
// short. Length mismatches panic.
func (r *Reference) NetworkAll(top arch.Network, frozen, learnable []float64, xs [][]float64, a []float64, cut bool) (ys, gFrozen, gLearn []float64, err error) {
	top.Validate()
	if len(xs) == 0 {
		panic("reference: no inputs")
	}
	a = objective(a, len(xs))
	features, stats := NetworkFeatures(top, frozen, learnable, xs)
	nr, err := r.networkGraph(top, len(xs), graph.NetworkOpts{AllStages: true, Cut: cut})
	if err != nil {
		return nil, nil, nil, err
	}
	var mean, scale [][]float64
	if stats != nil {
		mean, scale = stats.Mean, stats.Scale
	}
	if err := nr.g.Bind(frozen, learnable, xs, a, mean, scale); err != nil {
		return nil, nil, nil, fmt.Errorf("reference: %w", err)
	}
	if cut {
		if err := nr.g.BindCut(features); err != nil {
			return nil, nil, nil, fmt.Errorf("reference: %w", err)
		}
	}
	if err := run(nr.vm); err != nil {
		return nil, nil, nil, err
	}
	if ys, err = nr.g.Outputs(); err != nil {
		return nil, nil, nil, fmt.Errorf("reference: %w", err)
	}
	if gFrozen, gLearn, err = nr.g.FullGradient(); err != nil {
		return nil, nil, nil, fmt.Errorf("reference: %w", err)
	}
	return ys, gFrozen, gLearn, nil
}

// NetworkFeatures runs the network from the zero state over xs, as
// NetworkForward, and returns the normalized features of every step,
// features[t-1][k] = ĥ_{t,k} (h_{t,k} without normalization), and the
// statistics.
func NetworkFeatures(top arch.Network, frozen, learnable []float64, xs [][]float64) (features [][]float64, stats *Stats) {
	F := top.Features()
	features = make([][]float64, len(xs))
	var st *NetState
	if top.Norm.Enabled {
		stats = &Stats{Mean: make([][]float64, len(xs)), Scale: make([][]float64, len(xs))}
	}
	for t := range xs {
		_, one, end := NetworkForwardFrom(top, frozen, learnable, st, xs[t:t+1], nil)
		st = end
		features[t] = make([]float64, F)
		for k, h := range end.H {
			if one != nil {
				h = (h - one.Mean[0][k]) / one.Scale[0][k]
			}
			features[t][k] = h
		}
		if one != nil {
			stats.Mean[t], stats.Scale[t] = one.Mean[0], one.Scale[0]
		}
	}
	return features, stats
}
