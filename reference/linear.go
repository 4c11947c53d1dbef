package reference

import (
	"fmt"
	"math"

	"gorgonia.org/gorgonia"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/graph"
)

type linearRun struct {
	g  *graph.Linear
	vm gorgonia.VM
}

// LinearStats returns the normalization statistics of the inputs xs for the
// linear control (FeatureStats), or nil, nil if the normalization is off.
func LinearStats(shape arch.Linear, xs [][]float64) (mean, inv [][]float64) {
	if !shape.Norm.Enabled {
		return nil, nil
	}
	return FeatureStats(shape.Norm, xs)
}

// FeatureStats returns the online normalization statistics of the values
// hs[t-1] of steps t = 1..T, written out from Equation 11 of the paper
// (§3.4) per value i,
//
//	μ_t  = β·μ_{t−1} + (1−β)·h_t                           μ_0 = 0
//	σ²_t = β·σ²_{t−1} + (1−β)·(μ_t − h_t)·(μ_{t−1} − h_t)  σ²_0 = 1
//	inv_t = 1/max(ε, σ_t)
//
// with β and ε of norm (whether it is enabled is the caller's concern).
func FeatureStats(norm arch.Normalization, hs [][]float64) (mean, inv [][]float64) {
	beta, eps := norm.DecayOrDefault(), norm.EpsilonOrDefault()
	var mu, v []float64
	mean, inv = make([][]float64, len(hs)), make([][]float64, len(hs))
	for t, x := range hs {
		if mu == nil {
			mu, v = make([]float64, len(x)), make([]float64, len(x))
			for i := range v {
				v[i] = 1
			}
		}
		mean[t], inv[t] = make([]float64, len(x)), make([]float64, len(x))
		for i, xi := range x {
			prev := mu[i]
			mu[i] = beta*mu[i] + (1-beta)*xi
			v[i] = beta*v[i] + (1-beta)*(mu[i]-xi)*(prev-xi)
			mean[t][i] = mu[i]
			inv[t][i] = 1 / math.Max(eps, math.Sqrt(v[i]))
		}
	}
	return mean, inv
}

// Linear returns y_1..y_T and the gradient, over θ = (w, b), of
//
//	L = Σ_t a[t-1]·y_t        (a nil means L = y_T)
//
// for the linear control (arch.Linear) on xs, the normalization statistics
// (LinearStats) held constant. T = len(xs) ≥ 1. Length mismatches panic.
func (r *Reference) Linear(shape arch.Linear, theta []float64, xs [][]float64, a []float64) (ys, grad []float64, err error) {
	shape.Validate()
	if len(theta) != shape.NumParams() {
		panic(fmt.Sprintf("reference: linear parameters have length %d, want %d", len(theta), shape.NumParams()))
	}
	if len(xs) == 0 {
		panic("reference: no inputs")
	}
	a = objective(a, len(xs))
	mean, inv := LinearStats(shape, xs)
	bounds := chunks(len(xs), r.MaxUnroll)
	ys = make([]float64, len(xs))
	grad = make([]float64, shape.NumParams())
	for i := range len(bounds) - 1 {
		lo, hi := bounds[i], bounds[i+1]
		lr, err := r.linearGraph(shape, hi-lo)
		if err != nil {
			return nil, nil, err
		}
		var mw, iw [][]float64
		if mean != nil {
			mw, iw = mean[lo:hi], inv[lo:hi]
		}
		if err := lr.g.Bind(theta, xs[lo:hi], mw, iw, a[lo:hi]); err != nil {
			return nil, nil, fmt.Errorf("reference: %w", err)
		}
		if err := run(lr.vm); err != nil {
			return nil, nil, err
		}
		if err := collectWindow(lr.g, ys[lo:hi], grad); err != nil {
			return nil, nil, err
		}
	}
	return ys, grad, nil
}

func (r *Reference) linearGraph(shape arch.Linear, steps int) (*linearRun, error) {
	key := fmt.Sprintf("m=%d T=%d", shape.Inputs, steps)
	if lr, ok := r.linear[key]; ok {
		return lr, nil
	}
	g, err := graph.NewLinear(shape, steps)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	lr := &linearRun{g: g, vm: newMachine(g.Graph, append(append(gorgonia.Nodes(nil), g.Y...), g.Grad))}
	r.linear[key] = lr
	return lr, nil
}
