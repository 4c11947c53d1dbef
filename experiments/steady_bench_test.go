//go:build linux

package experiments

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/benchclock"
)

// BenchmarkSteadyStep measures the end-to-end step of BenchmarkEndToEnd's
// configurations in steady state: the thread CPU time of chunks of 2,000
// steps, reported as the 10th percentile and the median over the chunks
// (docs/performance.md, "How to re-measure"). Use a fixed step count:
//
//	go test -run '^$' -bench 'SteadyStep/ccn20x4$' -benchtime 100000x ./experiments
func BenchmarkSteadyStep(b *testing.B) {
	for _, tc := range endToEndCases {
		b.Run(tc.name, func(b *testing.B) { benchSteadyStep[float64](b, tc.cfg) })
	}
}

// benchSteadyStep is BenchmarkSteadyStep's measurement of the engine of
// element type T for cfg.
func benchSteadyStep[T arch.Float](b *testing.B, cfg RunConfig) {
	a, next := newFinalStageAgent[T](b, cfg)
	x := make([]float64, 12)
	for range 20 {
		c, _ := next(x)
		a.Step(x, c)
	}
	benchclock.Chunks(b, 2000, "step", func(lo, hi int) {
		for range hi - lo {
			c, _ := next(x)
			a.Step(x, c)
		}
	})
}
