package benchclock

import (
	"flag"
	"slices"
	"testing"
)

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
