package td

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// Layout describes a learnable parameter vector to an optimizer: its length and
// where the prediction head (the output layer's weights, and bias if any) lies.
type Layout struct {
	Size      int // length of the learnable vector
	HeadStart int // first index of the head
	HeadEnd   int // one past the last index of the head
	Features  int // number of features the head reads (its fan-in)
}

// validate panics if l does not describe a vector.
func (l Layout) validate() {
	if l.Size < 1 || l.HeadStart < 0 || l.HeadStart > l.HeadEnd || l.HeadEnd > l.Size || l.Features < 1 {
		panic(fmt.Sprintf("td: invalid layout %+v", l))
	}
}

// Optimizer turns an ascent direction d = s·u (for TD(λ), δ·z) into an
// in-place update of the parameters, of element type T (arch.Float).
// Implementations keep per-parameter state and never allocate in Update.
type Optimizer[T arch.Float] interface {
	// Reset sizes the state for layout l and sets it to its initial value.
	Reset(l Layout)

	// Remap moves the state to a new layout l after the learner's
	// parameter vector changed: entry i of the new state takes entry
	// from[i] of the old state, or its initial value where from[i] < 0.
	// len(from) must be l.Size.
	Remap(l Layout, from []int)

	// Update adds the step for the direction s·u to theta; both slices
	// have length Layout.Size. (Taking the scale apart saves the agent a
	// pass over memory.)
	Update(theta, u []T, s float64)
}

// TraceFolder is implemented by optimizers that fold the TD(λ) trace update
// into their pass over the parameters: UpdateFold(θ, z, s, decay, g) gives
// the bits of
//
//	Update(θ, z, s);  z ← decay·z + 1·g
//
// with g = ∇v, the gradient of the latest prediction (z's entries are read
// by the step before they change). It saves TD a pass over z.
type TraceFolder[T arch.Float] interface {
	UpdateFold(theta, z []T, s, decay float64, g []T)
}

// remapInto returns a new slice of length len(from) whose entry i is
// old[from[i]], or fill where from[i] < 0. It allocates: remaps happen once
// per stage, not per step.
func remapInto[T arch.Float](old []T, from []int, fill T) []T {
	out := make([]T, len(from))
	for i, j := range from {
		if j < 0 {
			out[i] = fill
			continue
		}
		out[i] = old[j]
	}
	return out
}

// orDefault returns x, or def when x is the zero value that stands for it.
func orDefault(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}
