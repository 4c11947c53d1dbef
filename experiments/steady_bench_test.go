//go:build linux

package experiments

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"unsafe"

	"github.com/ccn-go/ccn/arch"
)

// threadCPU returns the calling thread's CPU time in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID): time other processes take from the core does
// not count, which makes it steadier than wall time on a loaded machine.
func threadCPU() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}

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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, next := newFinalStageAgent[T](b, cfg)
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
}
