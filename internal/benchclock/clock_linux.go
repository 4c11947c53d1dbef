package benchclock

import (
	"runtime"
	"slices"
	"testing"

	"github.com/ccn-go/ccn/internal/cputime"
)

// threadCPU is the calling thread's CPU time in nanoseconds (cputime.Thread,
// which reads it on Linux, the only system of this file).
func threadCPU() int64 {
	d, _ := cputime.Thread()
	return int64(d)
}

// Chunks times b.N steps on a locked OS thread: run(lo, hi) takes steps lo
// to hi−1, in chunks of the given size. It reports the thread CPU time per
// step as its mean (cpu-ns/UNIT) and, over the chunks, its 10th percentile
// and median (p10-cpu-ns/UNIT, p50-cpu-ns/UNIT), UNIT being unit ("op",
// "step"). The caller warms up before; Chunks resets the timer.
func Chunks(b *testing.B, chunk int, unit string, run func(lo, hi int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var per []float64
	b.ReportAllocs()
	b.ResetTimer()
	start := threadCPU()
	for lo := 0; lo < b.N; lo += chunk {
		hi := min(lo+chunk, b.N)
		c := threadCPU()
		run(lo, hi)
		per = append(per, float64(threadCPU()-c)/float64(hi-lo))
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/"+unit)
	slices.Sort(per)
	b.ReportMetric(per[len(per)/10], "p10-cpu-ns/"+unit)
	b.ReportMetric(per[len(per)/2], "p50-cpu-ns/"+unit)
}
