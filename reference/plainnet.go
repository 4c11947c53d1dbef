package reference

import (
	"fmt"
	"math"

	"github.com/ccn-go/ccn/arch"
)

// Stats holds the normalization statistics of a network run, per step and
// feature: Mean[t-1][k] = μ_{t,k} and Scale[t-1][k] = max(ε, σ_{t,k}), the
// values that normalize h_{t,k}.
type Stats struct {
	Mean, Scale [][]float64
}

// NetState is the state of a network between two steps, one entry per
// feature: the columns' h and c and the normalization statistics μ (Mean) and
// σ² (Variance). The zero state of a fresh network is h = c = μ = 0, σ² = 1.
type NetState struct {
	H, C, Mean, Variance []float64
}

// ZeroState returns the state of a fresh network with the given number of
// features.
func ZeroState(features int) *NetState {
	return (*NetState)(nil).Grow(features)
}

// Grow returns a copy of s extended to features entries: the new features
// start from h = c = μ = 0, σ² = 1, as the columns of a newly added stage do,
// while the existing ones keep their state and statistics (paper §3.2–3.4).
// A nil s is the state with no features.
func (s *NetState) Grow(features int) *NetState {
	var old NetState
	if s != nil {
		old = *s
	}
	if len(old.H) > features {
		panic(fmt.Sprintf("reference: cannot grow a state of %d features to %d", len(old.H), features))
	}
	g := &NetState{
		H:        make([]float64, features),
		C:        make([]float64, features),
		Mean:     make([]float64, features),
		Variance: make([]float64, features),
	}
	copy(g.H, old.H)
	copy(g.C, old.C)
	copy(g.Mean, old.Mean)
	for k := range g.Variance {
		g.Variance[k] = 1
	}
	copy(g.Variance, old.Variance)
	return g
}

// NetworkForward runs the network top with the frozen and learnable vectors
// (arch.Network layout) from the zero state over the inputs xs and returns
// ys[t-1] = y_t; it is NetworkForwardFrom with a nil start.
func NetworkForward(top arch.Network, frozen, learnable []float64, xs [][]float64, fixed *Stats) (ys []float64, stats *Stats) {
	ys, stats, _ = NetworkForwardFrom(top, frozen, learnable, nil, xs, fixed)
	return ys, stats
}

// NetworkForwardFrom runs the network top with the frozen and learnable
// vectors (arch.Network layout) from the state start (nil: the zero state)
// over the inputs xs and returns ys[t-1] = y_t and the state after the last
// step. Within a step, stages run in order and every feature is
// normalized as soon as it is computed (paper §3.4, Equation 11):
//
//	μ_t  = β·μ_{t-1} + (1-β)·h_t                           μ_0 = 0
//	σ²_t = β·σ²_{t-1} + (1-β)·(μ_t - h_t)·(μ_{t-1} - h_t)    σ²_0 = 1
//	ĥ_t  = (h_t - μ_t) / max(ε, σ_t)
//
// If fixed is nil the statistics are computed as above and returned; otherwise
// fixed is used in their place (and returned), which makes the function the
// one whose derivative the gradient is: statistics held constant. With
// normalization disabled ĥ = h and stats is nil. With fixed statistics the
// returned state's Mean and Variance are those of start. Length mismatches
// panic.
func NetworkForwardFrom(top arch.Network, frozen, learnable []float64, start *NetState, xs [][]float64, fixed *Stats) (ys []float64, stats *Stats, end *NetState) {
	top.Validate()
	if len(frozen) != top.NumFrozen() || len(learnable) != top.NumLearnable() {
		panic(fmt.Sprintf("reference: network vectors have lengths %d, %d, want %d, %d",
			len(frozen), len(learnable), top.NumFrozen(), top.NumLearnable()))
	}
	features := top.Features()
	norm := top.Norm.Enabled
	if norm {
		if fixed != nil {
			if len(fixed.Mean) != len(xs) || len(fixed.Scale) != len(xs) {
				panic(fmt.Sprintf("reference: statistics of %d, %d steps for %d inputs", len(fixed.Mean), len(fixed.Scale), len(xs)))
			}
			stats = fixed
		} else {
			stats = &Stats{Mean: make([][]float64, len(xs)), Scale: make([][]float64, len(xs))}
		}
	}
	beta, eps := top.Norm.DecayOrDefault(), top.Norm.EpsilonOrDefault()
	if start == nil {
		start = ZeroState(features)
	}
	if len(start.H) != features || len(start.C) != features || len(start.Mean) != features || len(start.Variance) != features {
		panic(fmt.Sprintf("reference: start state has %d, %d, %d, %d entries, want %d features",
			len(start.H), len(start.C), len(start.Mean), len(start.Variance), features))
	}
	end = start.Grow(features)
	h, c, mean, variance := end.H, end.C, end.Mean, end.Variance
	normalized := make([]float64, features)
	in := make([]float64, 0, top.Inputs+features)
	pre := make([]float64, arch.NumGates)
	head, bias := learnable[top.OffHead():top.OffHeadBias()], learnable[top.OffHeadBias()]
	ys = make([]float64, len(xs))
	for t, x := range xs {
		if len(x) != top.Inputs {
			panic(fmt.Sprintf("reference: input %d has length %d, want %d", t, len(x), top.Inputs))
		}
		if norm && fixed == nil {
			stats.Mean[t] = make([]float64, features)
			stats.Scale[t] = make([]float64, features)
		}
		for s, u := range top.Stages {
			m := top.ColumnInputs(s)
			in = append(append(in[:0], x...), normalized[:top.FirstFeature(s)]...)
			for j := 0; j < u; j++ {
				block := top.Block(frozen, learnable, s, j)
				k := top.FirstFeature(s) + j
				for q := 0; q < arch.NumGates; q++ {
					a := block[arch.ColIdxB(m, q)] + block[arch.ColIdxU(m, q)]*h[k]
					for i, v := range in {
						a += block[arch.ColIdxW(m, q, i)] * v
					}
					pre[q] = a
				}
				c[k], h[k] = cellUpdate(pre, c[k])
				if !norm {
					normalized[k] = h[k]
					continue
				}
				if fixed == nil {
					prevMean := mean[k]
					mean[k] = beta*mean[k] + (1-beta)*h[k]
					variance[k] = beta*variance[k] + (1-beta)*(mean[k]-h[k])*(prevMean-h[k])
					stats.Mean[t][k] = mean[k]
					stats.Scale[t][k] = math.Max(eps, math.Sqrt(variance[k]))
				}
				normalized[k] = (h[k] - stats.Mean[t][k]) / stats.Scale[t][k]
			}
		}
		y := bias
		for k, w := range head {
			y += w * normalized[k]
		}
		ys[t] = y
	}
	return ys, stats, end
}
