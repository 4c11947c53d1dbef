//go:build linux

package experiments

import (
	"runtime"
	"slices"
	"testing"

	"github.com/ccn-go/ccn/td"
)

// endToEndCases32 are the trace-patterning configurations of the float32
// engine (docs/performance.md, "The float32 engine"): Columnar 7 and CCN 20
// with 4 per stage, at their last stage.
var endToEndCases32 = []endToEnd{endToEndCases[2], endToEndCases[1]}

// newFinalStageAgent32 is newFinalStageAgent for the float32 engine.
func newFinalStageAgent32(tb testing.TB, cfg RunConfig) (*td.Agent[float32], func(x []float64) (float64, float64)) {
	cfg.Float32 = true
	r, err := cfg.Resolve()
	if err != nil {
		tb.Fatal(err)
	}
	e := r.NewEnv()
	l, layout, opt := r.NewLearner32(e.ObservationSize())
	a := lastStageAgent(l, layout, opt, r.Config())
	x := make([]float64, e.ObservationSize())
	e.Next(x)
	a.Start(x)
	return a, e.Next
}

// BenchmarkSteadyStepFloat32 is BenchmarkSteadyStep for the float32 engine
// at trace patterning's 12 inputs:
//
//	go test -run '^$' -bench 'SteadyStepFloat32/columnar7$' -benchtime 200000x ./experiments
func BenchmarkSteadyStepFloat32(b *testing.B) {
	for _, tc := range endToEndCases32 {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			a, next := newFinalStageAgent32(b, tc.cfg)
			x := make([]float64, 12)
			for range 20 {
				c, _ := next(x)
				a.Step(x, c)
			}
			const chunk = 2000
			var perStep []float64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += chunk {
				start := threadCPU()
				for range chunk {
					c, _ := next(x)
					a.Step(x, c)
				}
				perStep = append(perStep, float64(threadCPU()-start)/chunk)
			}
			slices.Sort(perStep)
			b.ReportMetric(perStep[len(perStep)/10], "p10-cpu-ns/step")
			b.ReportMetric(perStep[len(perStep)/2], "p50-cpu-ns/step")
		})
	}
}

func TestEndToEndFloat32ZeroAllocs(t *testing.T) {
	for _, tc := range endToEndCases32 {
		a, next := newFinalStageAgent32(t, tc.cfg)
		x := make([]float64, 12)
		if allocs := testing.AllocsPerRun(200, func() {
			c, _ := next(x)
			a.Step(x, c)
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per step", tc.name, allocs)
		}
	}
}
