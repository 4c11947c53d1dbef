package compare

import (
	"fmt"
	"math"
)

// Tolerance is the largest relative disagreement a passing check may have.
const Tolerance = 1e-10

// Agreement is the measured disagreement between an engine and the reference.
type Agreement struct {
	MaxAbs float64 // max_i |a_i − b_i|
	MaxRel float64 // MaxAbs / max(1, max_i |b_i|)
}

// Measure returns the agreement of got with want:
//
//	MaxAbs = max_i |got_i − want_i|
//	MaxRel = MaxAbs / max(1, max_i |want_i|)
//
// A NaN anywhere makes both infinite, so it can never pass.
func Measure(got, want []float64) Agreement {
	if len(got) != len(want) {
		panic(fmt.Sprintf("compare: length mismatch %d != %d", len(got), len(want)))
	}
	var maxAbs, scale float64 = 0, 1
	for i := range got {
		d := math.Abs(got[i] - want[i])
		if math.IsNaN(d) {
			return Agreement{MaxAbs: math.Inf(1), MaxRel: math.Inf(1)}
		}
		maxAbs = math.Max(maxAbs, d)
		scale = math.Max(scale, math.Abs(want[i]))
	}
	return Agreement{MaxAbs: maxAbs, MaxRel: maxAbs / scale}
}

// Worst returns the larger disagreement of a and b in each measure.
func (a Agreement) Worst(b Agreement) Agreement {
	return Agreement{MaxAbs: math.Max(a.MaxAbs, b.MaxAbs), MaxRel: math.Max(a.MaxRel, b.MaxRel)}
}

// Pass reports whether the agreement is within Tolerance.
func (a Agreement) Pass() bool { return a.MaxRel <= Tolerance }
