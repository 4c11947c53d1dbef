package compare

import (
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// CheckLinear compares forward.Linear (the memoryless control, parameters
// drawn at random) with the reference graph of the same shape: predictions,
// gradients at the check times and the gradient of a random combination.
// Its gradient is the normalized observation, so the check proves the wiring
// (which step's inputs, the statistics, the bias) rather than a recursion;
// forward.PreviousStepFeatures makes it fail.
func CheckLinear(r *reference.Reference, shape arch.Linear, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	e := forward.NewLinear(shape)
	fillUniform(rng, e.Params(), tr.Scale)
	e.Defect = defect
	theta := append([]float64(nil), e.Params()...)
	T := len(tr.Xs)
	ys, last, err := r.Linear(shape, theta, tr.Xs, nil)
	if err != nil {
		return Agreement{}, err
	}
	ref := truth{ys: ys,
		at: func(t int) ([]float64, error) {
			if t == T {
				return last, nil
			}
			_, g, err := r.Linear(shape, theta, tr.Xs, oneHot(T, t))
			return g, err
		},
		combo: func(a []float64) ([]float64, error) {
			_, g, err := r.Linear(shape, theta, tr.Xs, a)
			return g, err
		},
	}
	return agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
}
