package compare

import (
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// RTU cells of the verification table: the paper's non-linear and linear
// Recurrent Trace Units (forward.RTU).
const (
	CellRTU       = "rtu"
	CellRTULinear = "rtu-linear"
)

// isRTU reports whether cell names an RTU layer.
func isRTU(cell string) bool { return cell == CellRTU || cell == CellRTULinear }

// RTU is the shape of an RTU case (Hidden is the number of units),
// normalized as its Norm names (off when empty).
func (c Case) RTU() arch.RTU {
	return arch.RTU{Units: c.Hidden, Inputs: c.Inputs, Linear: c.Cell == CellRTULinear, Norm: c.Linear().Norm}
}

// rtuCases are the RTU rows: both variants on small shapes and on the runs'
// 12 inputs, trajectories up to L steps (one graph unrolls the whole
// trajectory, so L is capped at 50), without normalization; then both
// variants under each normalization setting on n = 1 (a single unit's two
// features) and on the runs' 12 inputs.
func rtuCases(L int) []Case {
	var cs []Case
	for _, cell := range []string{CellRTU, CellRTULinear} {
		for _, s := range []struct{ n, m int }{{1, 1}, {1, 3}, {3, 3}, {4, 12}} {
			for _, T := range uniq(1, min(20, L), min(50, L)) {
				cs = append(cs, Case{Engine: "forward", Cell: cell, Hidden: s.n, Inputs: s.m, Length: T})
			}
		}
	}
	for _, cell := range []string{CellRTU, CellRTULinear} {
		for _, n := range networkNorms[1:] {
			for _, s := range []struct{ n, m int }{{1, 3}, {4, 12}} {
				cs = append(cs, Case{Engine: "forward", Cell: cell, Hidden: s.n, Inputs: s.m, Length: min(50, L), Norm: n.name})
			}
		}
	}
	return cs
}

// CheckRTU compares forward.RTU with full BPTT through the reference graph on
// one random trajectory. The recurrent parameters follow the authors'
// initialization with |λ| in [0.3, 0.99) (long memory, so the traces carry
// many steps), the input weights and the head U(−Scale, Scale).
func CheckRTU(r *reference.Reference, shape arch.RTU, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	e := forward.NewRTU(shape)
	fillUniform(rng, e.Params(), tr.Scale)
	forward.InitRTU(shape, e.Params(), 0.3, 0.99, func() float64 { return 1 - rng.Float64() })
	e.Defect = defect
	params := append([]float64(nil), e.Params()...)
	ys, last, err := r.RTU(shape, params, tr.Xs, nil)
	if err != nil {
		return Agreement{}, err
	}
	T := len(tr.Xs)
	ref := truth{
		ys: ys,
		at: func(t int) ([]float64, error) {
			if t == T {
				return last, nil
			}
			_, g, err := r.RTU(shape, params, tr.Xs, oneHot(T, t))
			return g, err
		},
		combo: func(a []float64) ([]float64, error) {
			_, g, err := r.RTU(shape, params, tr.Xs, a)
			return g, err
		},
	}
	return agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
}
