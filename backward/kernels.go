package backward

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/lanes"
)

// kernels are the vector operations of a TBPTTOf[T], chosen by T when the
// engine is made: the float64 engine calls exactly the lanes kernels it
// always has, in the same order, so its results keep their bits; the
// float32 engine calls their float32 counterparts.
type kernels[T arch.Float] struct {
	// input writes the step's input x into the window's record.
	input func(dst []T, x []float64)
	// dot4 adds the four rows of w times x to a (lanes.Dot4).
	dot4 func(a *[4]T, w, x []T)
	// gates applies σ, σ, tanh, σ to the four blocks of H pre-activations
	// in place; scratch holds 4H float64s.
	gates func(g []T, scratch []float64)
	// tanh writes tanh(src) into dst.
	tanh func(dst, src []T, scratch []float64)
	// backward, delta and addMulT are lanes.LSTMBackward, lanes.LSTMDelta
	// and lanes.AddMulT; outerSum and sumWindow the window's sums into the
	// gradient (lanes.OuterSum, lanes.SumWindow). With setsWeights,
	// outerSum sets its block instead of adding to it (lanes.OuterSet32:
	// the bits of adding to zeros), so Grad clears only the blocks after
	// W_ih and W_hh.
	backward  func(da, dh, carry, next, whh []T, gates, tc, cp [][]T)
	delta     func(da, dh, carry, gates, tc, cp []T)
	addMulT   func(z, w, d []T)
	outerSum  func(g, d []T, x [][]T)
	sumWindow func(g, d []T)
	// outerSumSparse is outerSum over the entries that nz lists
	// (lanes.OuterSumSparse, bitwise equal to it on a cleared gradient and
	// a finite δa); nil where no such kernel exists (float32).
	outerSumSparse func(g, d []T, x [][]T, nz [][]int32)
	// allFinite reports whether no entry is ±Inf or NaN (lanes.AllFinite),
	// the condition of outerSumSparse's bits; nil where outerSumSparse is.
	allFinite func(x []T) bool

	setsWeights bool
}

// kernelsOf returns the kernels of the element type T.
func kernelsOf[T arch.Float]() kernels[T] {
	var k any
	switch any(T(0)).(type) {
	case float64:
		k = kernels[float64]{
			input: func(dst []float64, x []float64) { copy(dst, x) },
			dot4:  lanes.Dot4,
			gates: func(g []float64, _ []float64) {
				H := len(g) / 4
				lanes.Sigmoid(g[:2*H], g[:2*H])
				lanes.Tanh(g[2*H:3*H], g[2*H:3*H])
				lanes.Sigmoid(g[3*H:], g[3*H:])
			},
			tanh:           func(dst, src []float64, _ []float64) { lanes.Tanh(dst, src) },
			backward:       lanes.LSTMBackward,
			delta:          lanes.LSTMDelta,
			addMulT:        lanes.AddMulT,
			outerSum:       lanes.OuterSum,
			sumWindow:      lanes.SumWindow,
			outerSumSparse: lanes.OuterSumSparse,
			allFinite:      lanes.AllFinite,
		}
	case float32:
		k = kernels[float32]{
			input:       lanes.Input32,
			dot4:        lanes.Dot4x32,
			gates:       lanes.LSTMGates32,
			tanh:        lanes.LSTMTanh32,
			backward:    lanes.LSTMBackward32,
			delta:       lanes.LSTMDelta32,
			addMulT:     lanes.AddMulT32,
			outerSum:    lanes.OuterSet32,
			sumWindow:   lanes.SumWindow32,
			setsWeights: true,
		}
	}
	return k.(kernels[T])
}

// split is arch.Dense.Split for a vector of element type T.
func split[T arch.Float](d arch.Dense, p []T) (wih, whh, b, wout []T) {
	if len(p) != d.NumParams() {
		panic(fmt.Sprintf("backward: dense vector has length %d, want %d", len(p), d.NumParams()))
	}
	return p[:d.OffWHH()], p[d.OffWHH():d.OffB()], p[d.OffB():d.OffOut()], p[d.OffOut() : d.OffOut()+d.Hidden]
}
