//go:build linux

package experiments

import (
	"slices"
	"testing"
)

// endToEndCases32 are the trace-patterning configurations of the float32
// engine (docs/performance.md, "The float32 engine"): Columnar 7 and CCN 20
// with 4 per stage, at their last stage.
var endToEndCases32 = slices.DeleteFunc(slices.Clone(endToEndCases), func(c endToEnd) bool {
	return c.name != "columnar7" && c.name != "ccn20x4"
})

// BenchmarkSteadyStepFloat32 is BenchmarkSteadyStep for the float32 engine
// at trace patterning's 12 inputs:
//
//	go test -run '^$' -bench 'SteadyStepFloat32/columnar7$' -benchtime 200000x ./experiments
func BenchmarkSteadyStepFloat32(b *testing.B) {
	for _, tc := range endToEndCases32 {
		b.Run(tc.name, func(b *testing.B) { benchSteadyStep[float32](b, tc.cfg) })
	}
}

func TestEndToEndFloat32ZeroAllocs(t *testing.T) {
	if len(endToEndCases32) != 2 {
		t.Fatalf("%d float32 trace-patterning cases, want Columnar 7 and CCN 20", len(endToEndCases32))
	}
	for _, tc := range endToEndCases32 {
		a, next := newFinalStageAgent[float32](t, tc.cfg)
		x := make([]float64, 12)
		if allocs := testing.AllocsPerRun(200, func() {
			c, _ := next(x)
			a.Step(x, c)
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per step", tc.name, allocs)
		}
	}
}
