package backward

import (
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
)

// This file holds slow, independent implementations the tests judge the
// engine by: a plain LSTM forward pass written from the arch.Dense index
// helpers, central finite differences of it, and an exact forward-mode
// (RTRL) sensitivity propagation. None of them shares code with tbptt.go.

// lstmState is a dense LSTM state.
type lstmState struct{ h, c []float64 }

func zeroState(H int) lstmState {
	return lstmState{h: make([]float64, H), c: make([]float64, H)}
}

func logistic(a float64) float64 { return 1 / (1 + math.Exp(-a)) }

// preact returns a_q[j] = Σ_k W_ih[q,j,k]·x_k + Σ_k W_hh[q,j,k]·h_k + b[q,j].
func preact(d arch.Dense, p []float64, q, j int, x, h []float64) float64 {
	a := p[d.IdxB(q, j)]
	for k := 0; k < d.Inputs; k++ {
		a += p[d.IdxWIH(q, j, k)] * x[k]
	}
	for k := 0; k < d.Hidden; k++ {
		a += p[d.IdxWHH(q, j, k)] * h[k]
	}
	return a
}

// forwardOne advances st by one step and returns the new state.
func forwardOne(d arch.Dense, p []float64, st lstmState, x []float64) lstmState {
	next := zeroState(d.Hidden)
	for j := 0; j < d.Hidden; j++ {
		i := logistic(preact(d, p, arch.GateI, j, x, st.h))
		f := logistic(preact(d, p, arch.GateF, j, x, st.h))
		g := math.Tanh(preact(d, p, arch.GateG, j, x, st.h))
		o := logistic(preact(d, p, arch.GateO, j, x, st.h))
		next.c[j] = f*st.c[j] + i*g
		next.h[j] = o * math.Tanh(next.c[j])
	}
	return next
}

// runFrom runs the LSTM from st over xs and returns the final state.
func runFrom(d arch.Dense, p []float64, st lstmState, xs [][]float64) lstmState {
	for _, x := range xs {
		st = forwardOne(d, p, st, x)
	}
	return st
}

// predict is y = w_out·h.
func predict(d arch.Dense, p []float64, h []float64) float64 {
	var y float64
	for j := 0; j < d.Hidden; j++ {
		y += p[d.IdxOut(j)] * h[j]
	}
	return y
}

// windowStart returns the constant state entering the truncation window of
// the gradient of y_t (1-based) and the window's inputs: the state at t−k,
// computed by a plain forward pass over xs[:t−k].
func windowStart(d arch.Dense, p []float64, xs [][]float64, t, k int) (lstmState, [][]float64) {
	start := 0
	if k > 0 && t > k {
		start = t - k
	}
	return runFrom(d, p, zeroState(d.Hidden), xs[:start]), xs[start:t]
}

// finiteDiffGrad returns the central finite difference of
// θ ↦ w_out·h(run from st over win) with step eps.
func finiteDiffGrad(d arch.Dense, p []float64, st lstmState, win [][]float64, eps float64) []float64 {
	q := append([]float64(nil), p...)
	g := make([]float64, len(p))
	for i := range q {
		q[i] = p[i] + eps
		yp := predict(d, q, runFrom(d, q, st, win).h)
		q[i] = p[i] - eps
		ym := predict(d, q, runFrom(d, q, st, win).h)
		q[i] = p[i]
		g[i] = (yp - ym) / (2 * eps)
	}
	return g
}

// forwardModeGrad returns the exact ∂y/∂θ of y = w_out·h(run from st over
// win), propagating Sh = ∂h/∂θ and Sc = ∂c/∂θ forward (RTRL), with the state
// entering the window held constant (Sh = Sc = 0 there).
func forwardModeGrad(d arch.Dense, p []float64, st lstmState, win [][]float64) []float64 {
	H, P := d.Hidden, d.NumParams()
	sh := make([][]float64, H)
	sc := make([][]float64, H)
	for j := range sh {
		sh[j] = make([]float64, P)
		sc[j] = make([]float64, P)
	}
	for _, x := range win {
		nsh := make([][]float64, H)
		nsc := make([][]float64, H)
		next := zeroState(H)
		for j := 0; j < H; j++ {
			var act [arch.NumGates]float64
			var dact [arch.NumGates][]float64 // ∂gate/∂θ
			for q := 0; q < arch.NumGates; q++ {
				a := preact(d, p, q, j, x, st.h)
				da := make([]float64, P)
				for k := 0; k < H; k++ {
					w := p[d.IdxWHH(q, j, k)]
					for n := range da {
						da[n] += w * sh[k][n]
					}
				}
				for k := 0; k < d.Inputs; k++ {
					da[d.IdxWIH(q, j, k)] += x[k]
				}
				for k := 0; k < H; k++ {
					da[d.IdxWHH(q, j, k)] += st.h[k]
				}
				da[d.IdxB(q, j)]++
				var slope float64
				if q == arch.GateG {
					act[q] = math.Tanh(a)
					slope = 1 - act[q]*act[q]
				} else {
					act[q] = logistic(a)
					slope = act[q] * (1 - act[q])
				}
				for n := range da {
					da[n] *= slope
				}
				dact[q] = da
			}
			i, f, g, o := act[arch.GateI], act[arch.GateF], act[arch.GateG], act[arch.GateO]
			next.c[j] = f*st.c[j] + i*g
			tc := math.Tanh(next.c[j])
			next.h[j] = o * tc
			nsc[j] = make([]float64, P)
			nsh[j] = make([]float64, P)
			for n := 0; n < P; n++ {
				nsc[j][n] = f*sc[j][n] + st.c[j]*dact[arch.GateF][n] + g*dact[arch.GateI][n] + i*dact[arch.GateG][n]
				nsh[j][n] = tc*dact[arch.GateO][n] + o*(1-tc*tc)*nsc[j][n]
			}
		}
		st, sh, sc = next, nsh, nsc
	}
	g := make([]float64, P)
	for j := 0; j < H; j++ {
		w := p[d.IdxOut(j)]
		for n := range g {
			g[n] += w * sh[j][n]
		}
		g[d.IdxOut(j)] = st.h[j]
	}
	return g
}

// randomCase draws T inputs N(0,1) and parameters U(−scale, scale).
func randomCase(rng *rand.Rand, d arch.Dense, T int, scale float64) (p []float64, xs [][]float64) {
	p = make([]float64, d.NumParams())
	for i := range p {
		p[i] = scale * (2*rng.Float64() - 1)
	}
	xs = make([][]float64, T)
	for t := range xs {
		xs[t] = make([]float64, d.Inputs)
		for j := range xs[t] {
			xs[t][j] = rng.NormFloat64()
		}
	}
	return p, xs
}
