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

// NetworkForward runs the network top with the frozen and learnable vectors
// (arch.Network layout) from the zero state over the inputs xs and returns
// ys[t-1] = y_t. Within a step, stages run in order and every feature is
// normalized as soon as it is computed (paper §3.4, Equation 11):
//
//	μ_t  = β·μ_{t-1} + (1-β)·h_t                           μ_0 = 0
//	σ²_t = β·σ²_{t-1} + (1-β)·(μ_t - h_t)·(μ_{t-1} - h_t)    σ²_0 = 1
//	ĥ_t  = (h_t - μ_t) / max(ε, σ_t)
//
// If fixed is nil the statistics are computed as above and returned; otherwise
// fixed is used in their place (and returned), which makes the function the
// one whose derivative the gradient is: statistics held constant. With
// normalization disabled ĥ = h and stats is nil. Length mismatches panic.
func NetworkForward(top arch.Network, frozen, learnable []float64, xs [][]float64, fixed *Stats) (ys []float64, stats *Stats) {
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
	mean, variance := make([]float64, features), make([]float64, features)
	for k := range variance {
		variance[k] = 1
	}
	h, c := make([]float64, features), make([]float64, features)
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
	return ys, stats
}
