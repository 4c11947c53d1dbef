package benchclock

import (
	"flag"
	"runtime"
	"slices"
	"testing"
	"time"
)

// ThreadCPU counts the thread's work, not the time it waits: 30 ms of
// spinning advance it by most of 30 ms, 60 ms of sleep by almost nothing
// (a wall clock would fail the second, a process clock of another thread's
// work neither).
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, w0 := ThreadCPU(), time.Now()
	for time.Since(w0) < 30*time.Millisecond {
	}
	busy := time.Duration(ThreadCPU() - c0)
	c1 := ThreadCPU()
	time.Sleep(60 * time.Millisecond)
	idle := time.Duration(ThreadCPU() - c1)
	if busy < 5*time.Millisecond || busy > 40*time.Millisecond {
		t.Errorf("30 ms of spinning took %v of thread CPU time, want 5-40 ms (the core may be shared, not absent)", busy)
	}
	if idle > 5*time.Millisecond {
		t.Errorf("60 ms of sleep took %v of thread CPU time, want under 5 ms", idle)
	}
}

// Chunks calls run over exactly [0, b.N) in order, in chunks of at most the
// given size, for each b.N the benchmark is run with (1, then 2,500).
func TestChunksCoversSteps(t *testing.T) {
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	defer bt.Value.Set(old)
	if err := bt.Value.Set("2500x"); err != nil {
		t.Fatal(err)
	}
	var ns []int
	testing.Benchmark(func(b *testing.B) {
		ns = append(ns, b.N)
		next := 0
		Chunks(b, 1000, "op", func(lo, hi int) {
			if lo != next || hi <= lo || hi-lo > 1000 {
				t.Errorf("N=%d: chunk [%d, %d) after %d", b.N, lo, hi, next)
			}
			next = hi
		})
		if next != b.N {
			t.Errorf("N=%d: chunks end at %d", b.N, next)
		}
	})
	if !slices.Contains(ns, 2500) {
		t.Errorf("benchmark run with N = %v, want 2500 among them", ns)
	}
}
