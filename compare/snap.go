package compare

import (
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// CheckSnAp1 compares forward.SnAp1 on one random trajectory with what it must
// equal. With diagonal true, W_hh is zeroed off the diagonal, and with H = 1,
// SnAp-1 is exact and the truth is full BPTT (the reference). Otherwise the
// truth is MaskedRTRL, the documented approximation computed independently;
// the predictions are then still those of the reference.
func CheckSnAp1(r *reference.Reference, shape arch.Dense, diagonal bool, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	e := forward.NewSnAp1(shape)
	fillUniform(rng, e.Params(), tr.Scale)
	if diagonal {
		zeroOffDiagonal(shape, e.Params())
	}
	e.Defect = defect
	params := append([]float64(nil), e.Params()...)
	var ref truth
	var err error
	if diagonal || shape.Hidden == 1 {
		ref, err = denseTruth(r, shape, params, tr.Xs, 0)
	} else {
		ref, err = maskedTruth(r, shape, params, tr.Xs)
	}
	if err != nil {
		return Agreement{}, err
	}
	return agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
}

// zeroOffDiagonal sets W_hh[q·H+j][k] = 0 for k ≠ j in the flat dense vector
// p: the units then read only their own previous state, as the columns of a
// Columnar network do.
func zeroOffDiagonal(shape arch.Dense, p []float64) {
	for q := 0; q < arch.NumGates; q++ {
		for j := 0; j < shape.Hidden; j++ {
			for k := 0; k < shape.Hidden; k++ {
				if k != j {
					p[shape.IdxWHH(q, j, k)] = 0
				}
			}
		}
	}
}

// maskedTruth is the reference predictions with MaskedRTRL's gradients.
func maskedTruth(r *reference.Reference, shape arch.Dense, params []float64, xs [][]float64) (truth, error) {
	ys, _, err := r.Dense(shape, params, xs, nil)
	if err != nil {
		return truth{}, err
	}
	grads := MaskedRTRL(shape, params, xs)
	return truth{
		ys: ys,
		at: func(t int) ([]float64, error) { return grads[t-1], nil },
		combo: func(a []float64) ([]float64, error) {
			sum := make([]float64, shape.NumParams())
			for t, g := range grads {
				for i, v := range g {
					sum[i] += a[t] * v
				}
			}
			return sum, nil
		},
	}, nil
}

// MaskedRTRL returns the SnAp-1 gradients ∂y_t/∂θ, t = 1..T, computed the
// plain way: exact RTRL over the full influence matrices J_h, J_c (H × P, the
// rows ∂h_j/∂p and ∂c_j/∂p) followed, after every step, by zeroing every entry
// (j, p) where p is not on a row of unit j. It shares no code with
// forward.SnAp1 and is meant to be slow and obviously right.
func MaskedRTRL(shape arch.Dense, params []float64, xs [][]float64) [][]float64 {
	H, m, P := shape.Hidden, shape.Inputs, shape.NumCellParams()
	wih, whh, b, wout := shape.Split(params)
	// unit[p] is j for p on a row of unit j; direct(p, q, j, x, hp) is ∂a_{q,j}/∂p at fixed state.
	unit := make([]int, P)
	row := make([]int, P)   // row q·H+j of p
	input := make([]int, P) // k: x_k (kind 0), h_k (kind 1), or unused (kind 2)
	kind := make([]int, P)
	for q := 0; q < arch.NumGates; q++ {
		for j := 0; j < H; j++ {
			for k := 0; k < m; k++ {
				p := shape.IdxWIH(q, j, k)
				unit[p], row[p], input[p], kind[p] = j, q*H+j, k, 0
			}
			for k := 0; k < H; k++ {
				p := shape.IdxWHH(q, j, k)
				unit[p], row[p], input[p], kind[p] = j, q*H+j, k, 1
			}
			p := shape.IdxB(q, j)
			unit[p], row[p], kind[p] = j, q*H+j, 2
		}
	}
	Jh := make([][]float64, H)
	Jc := make([][]float64, H)
	for j := range Jh {
		Jh[j] = make([]float64, P)
		Jc[j] = make([]float64, P)
	}
	h := make([]float64, H)
	c := make([]float64, H)
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	var out [][]float64
	for _, x := range xs {
		// Pre-activations and gates from the previous state.
		a := make([]float64, 4*H)
		for r := range a {
			a[r] = b[r]
			for k := 0; k < m; k++ {
				a[r] += wih[r*m+k] * x[k]
			}
			for k := 0; k < H; k++ {
				a[r] += whh[r*H+k] * h[k]
			}
		}
		gi, gf, gg, gou := make([]float64, H), make([]float64, H), make([]float64, H), make([]float64, H)
		cn, hn := make([]float64, H), make([]float64, H)
		for j := 0; j < H; j++ {
			gi[j], gf[j], gg[j], gou[j] = sig(a[arch.GateI*H+j]), sig(a[arch.GateF*H+j]), math.Tanh(a[arch.GateG*H+j]), sig(a[arch.GateO*H+j])
			cn[j] = gf[j]*c[j] + gi[j]*gg[j]
			hn[j] = gou[j] * math.Tanh(cn[j])
		}
		// Exact RTRL step on the (masked) previous influence.
		nh := make([][]float64, H)
		nc := make([][]float64, H)
		for j := range nh {
			nh[j] = make([]float64, P)
			nc[j] = make([]float64, P)
		}
		for p := 0; p < P; p++ {
			da := make([]float64, 4*H)
			for r := range da {
				for k := 0; k < H; k++ {
					da[r] += whh[r*H+k] * Jh[k][p]
				}
			}
			switch kind[p] {
			case 0:
				da[row[p]] += x[input[p]]
			case 1:
				da[row[p]] += h[input[p]]
			default:
				da[row[p]]++
			}
			for j := 0; j < H; j++ {
				dI := gi[j] * (1 - gi[j]) * da[arch.GateI*H+j]
				dF := gf[j] * (1 - gf[j]) * da[arch.GateF*H+j]
				dG := (1 - gg[j]*gg[j]) * da[arch.GateG*H+j]
				dO := gou[j] * (1 - gou[j]) * da[arch.GateO*H+j]
				dc := dF*c[j] + gf[j]*Jc[j][p] + dI*gg[j] + gi[j]*dG
				tc := math.Tanh(cn[j])
				nc[j][p] = dc
				nh[j][p] = dO*tc + gou[j]*(1-tc*tc)*dc
			}
		}
		// The SnAp-1 mask.
		for j := 0; j < H; j++ {
			for p := 0; p < P; p++ {
				if unit[p] != j {
					nh[j][p], nc[j][p] = 0, 0
				}
			}
		}
		Jh, Jc, h, c = nh, nc, hn, cn
		g := make([]float64, shape.NumParams())
		for p := 0; p < P; p++ {
			for j := 0; j < H; j++ {
				g[p] += wout[j] * Jh[j][p]
			}
		}
		copy(g[shape.OffOut():], h)
		if shape.OutBias {
			g[shape.IdxOutBias()] = 1
		}
		out = append(out, g)
	}
	return out
}
