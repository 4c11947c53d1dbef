package forward

import (
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
)

// This file holds plain forward passes written independently of the engines
// (index helpers of arch, no traces), the witnesses for finite differences.

func refSigmoid(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// refColumnStep is one step of an LSTM column with parameters p on input x.
func refColumnStep(p, x []float64, h, c float64) (float64, float64) {
	m := len(x)
	var a [arch.NumGates]float64
	for q := range a {
		s := p[arch.ColIdxB(m, q)] + p[arch.ColIdxU(m, q)]*h
		for k := range x {
			s += p[arch.ColIdxW(m, q, k)] * x[k]
		}
		a[q] = s
	}
	i, f := refSigmoid(a[arch.GateI]), refSigmoid(a[arch.GateF])
	g, o := math.Tanh(a[arch.GateG]), refSigmoid(a[arch.GateO])
	c = f*c + i*g
	return o * math.Tanh(c), c
}

// refColumnRun returns h after running a column on xs from zero state.
func refColumnRun(p []float64, xs [][]float64) float64 {
	var h, c float64
	for _, x := range xs {
		h, c = refColumnStep(p, x, h, c)
	}
	return h
}

// refDenseRun returns y_T of a dense LSTM with flat parameters p.
func refDenseRun(d arch.Dense, p []float64, xs [][]float64) float64 {
	H := d.Hidden
	h, c := make([]float64, H), make([]float64, H)
	hn, cn := make([]float64, H), make([]float64, H)
	for _, x := range xs {
		for j := 0; j < H; j++ {
			var a [arch.NumGates]float64
			for q := range a {
				s := p[d.IdxB(q, j)]
				for k := range x {
					s += p[d.IdxWIH(q, j, k)] * x[k]
				}
				for k := 0; k < H; k++ {
					s += p[d.IdxWHH(q, j, k)] * h[k]
				}
				a[q] = s
			}
			i, f := refSigmoid(a[arch.GateI]), refSigmoid(a[arch.GateF])
			g, o := math.Tanh(a[arch.GateG]), refSigmoid(a[arch.GateO])
			cn[j] = f*c[j] + i*g
			hn[j] = o * math.Tanh(cn[j])
		}
		copy(h, hn)
		copy(c, cn)
	}
	y := 0.0
	for j := 0; j < H; j++ {
		y += p[d.IdxOut(j)] * h[j]
	}
	return y
}

// refStat is the (constant for the gradient) normalization of one feature at
// one step: ĥ = (h - mean)·scale.
type refStat struct{ mean, scale float64 }

// refNet is a staged network evaluated from its two flat vectors. Stage s
// starts at step birth[s] with zero state and fresh statistics.
type refNet struct {
	top           arch.Network
	frozen, learn []float64
	birth         []int
}

// run returns y_t for every step. If stats is nil the statistics are computed
// from the run and returned; otherwise the given ones are used as constants.
func (r refNet) run(xs [][]float64, stats [][]refStat) ([]float64, [][]refStat) {
	top := r.top
	F, L := top.Features(), top.Learning()
	record := stats == nil
	if record {
		stats = make([][]refStat, len(xs))
	}
	beta, eps := top.Norm.DecayOrDefault(), top.Norm.EpsilonOrDefault()
	mean, variance := make([]float64, F), make([]float64, F)
	for k := range variance {
		variance[k] = 1
	}
	h, c, hat := make([]float64, F), make([]float64, F), make([]float64, F)
	ys := make([]float64, len(xs))
	for t, x := range xs {
		if record {
			stats[t] = make([]refStat, F)
		}
		k := 0
		for s, u := range top.Stages {
			if t < r.birth[s] {
				k += u
				continue
			}
			in := append(append([]float64(nil), x...), hat[:top.FirstFeature(s)]...)
			mc := top.ColumnInputs(s)
			for j := 0; j < u; j++ {
				var p []float64
				if s < L {
					p = r.frozen[top.OffFrozen(s, j) : top.OffFrozen(s, j)+arch.ColumnParams(mc)]
				} else {
					p = r.learn[top.OffLearn(j) : top.OffLearn(j)+arch.ColumnParams(mc)]
				}
				h[k], c[k] = refColumnStep(p, in, h[k], c[k])
				if record {
					st := refStat{mean: 0, scale: 1}
					if top.Norm.Enabled {
						mu := beta*mean[k] + (1-beta)*h[k]
						variance[k] = beta*variance[k] + (1-beta)*(mu-h[k])*(mean[k]-h[k])
						mean[k] = mu
						st = refStat{mean: mu, scale: 1 / math.Max(eps, math.Sqrt(variance[k]))}
					}
					stats[t][k] = st
				}
				hat[k] = (h[k] - stats[t][k].mean) * stats[t][k].scale
				k++
			}
		}
		y := r.learn[top.OffHeadBias()]
		for k := 0; k < F; k++ {
			if t >= r.birth[stageOf(top, k)] {
				y += r.learn[top.OffHead()+k] * hat[k]
			}
		}
		ys[t] = y
	}
	return ys, stats
}

func stageOf(top arch.Network, k int) int {
	for s := range top.Stages {
		if k < top.FirstFeature(s+1) {
			return s
		}
	}
	panic("feature out of range")
}

// centralDiff returns (f(θ+h·e_p) - f(θ-h·e_p))/(2h) for every p, restoring θ.
func centralDiff(theta []float64, f func() float64) []float64 {
	const step = 1e-6
	g := make([]float64, len(theta))
	for p := range theta {
		v := theta[p]
		theta[p] = v + step
		fp := f()
		theta[p] = v - step
		fm := f()
		theta[p] = v
		g[p] = (fp - fm) / (2 * step)
	}
	return g
}

func fillUniform(rng *rand.Rand, dst []float64, s float64) {
	for k := range dst {
		dst[k] = s * (2*rng.Float64() - 1)
	}
}

func randomInputs(rng *rand.Rand, T, m int) [][]float64 {
	xs := make([][]float64, T)
	for t := range xs {
		xs[t] = make([]float64, m)
		fillUniform(rng, xs[t], 1)
	}
	return xs
}
