//go:build linux

package backward

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/internal/benchclock"
)

// atariFrames are 16 inputs of 275 entries of 0 and 1, about a seventh of
// them 1 (a tenth at random and one in sixteen more by position), as the
// Atari encoding's sparse binary frames.
func atariFrames() [][]float64 {
	rng := rand.New(rand.NewPCG(13, 14))
	xs := make([][]float64, 16)
	for i := range xs {
		xs[i] = make([]float64, 275)
		for k := range xs[i] {
			if rng.Float64() < 0.1 || k%16 == i {
				xs[i][k] = 1
			}
		}
	}
	return xs
}

// BenchmarkFloat32 measures one Step plus one Grad of the float64 and the
// float32 engine at 275 sparse binary inputs, for the pairs k:H of the
// Atari runs (5:7, 15:2, 2:25), in the thread's CPU time (cpu-ns/op):
//
//	GOEXPERIMENT=simd go test -c -o backward.test ./backward
//	taskset -c 1 ./backward.test -test.run '^$' -test.bench BenchmarkFloat32 -test.benchtime 20000x -test.cpu 1
func BenchmarkFloat32(b *testing.B) {
	xs := atariFrames()
	for _, c := range []struct{ k, H int }{{5, 7}, {15, 2}, {2, 25}} {
		benchBothEngines(b, arch.Dense{Hidden: c.H, Inputs: 275}, c.k, xs)
	}
}

// benchBothEngines runs the sub-benchmarks "k:H/f64" and "k:H/f32": Step
// and Grad of the float64 and the float32 engine of shape d and
// truncation k from the same parameters (rounded for float32), timed by
// benchStepGrad.
func benchBothEngines(b *testing.B, d arch.Dense, k int, xs [][]float64) {
	p, _ := randomCase(rand.New(rand.NewPCG(1, 2)), d, 1, 0.1)
	name := fmt.Sprintf("%d:%d", k, d.Hidden)
	b.Run(name+"/f64", func(b *testing.B) {
		e := NewTBPTT(d, k)
		copy(e.Params(), p)
		benchStepGrad(b, e, xs)
	})
	b.Run(name+"/f32", func(b *testing.B) {
		e := NewTBPTT32(d, k)
		for i, v := range p {
			e.Params()[i] = float32(v)
		}
		benchStepGrad(b, e, xs)
	})
}

// BenchmarkFloat32TracePatterning is BenchmarkFloat32 at trace patterning's
// shape, 12 inputs (k:H = 15:4), on frames of 0 and 1 (about a fifth 1),
// reporting also the 10th percentile of the thread CPU time over chunks of
// 1,000 steps (p10-cpu-ns/op), steadier on a loaded machine:
//
//	GOEXPERIMENT=simd go test -c -o backward.test ./backward
//	taskset -c 1 ./backward.test -test.run '^$' -test.bench BenchmarkFloat32TracePatterning -test.benchtime 200000x -test.cpu 1
func BenchmarkFloat32TracePatterning(b *testing.B) {
	rng := rand.New(rand.NewPCG(15, 4))
	xs := make([][]float64, 16)
	for i := range xs {
		xs[i] = make([]float64, 12)
		for k := range xs[i] {
			if rng.Float64() < 0.2 {
				xs[i][k] = 1
			}
		}
	}
	benchBothEngines(b, arch.Dense{Hidden: 4, Inputs: 12}, 15, xs)
}

// benchStepGrad times Step and Grad of e on the frames xs after 100 steps
// of warm-up (full windows), in the thread's CPU time per step and its 10th
// percentile over chunks of 1,000 steps (benchclock.Chunks).
func benchStepGrad[T arch.Float](b *testing.B, e *TBPTTOf[T], xs [][]float64) {
	g := make([]T, e.NumParams())
	for i := range 100 {
		e.Step(xs[i&15])
		e.Grad(g)
	}
	benchclock.Chunks(b, 1000, "op", func(lo, hi int) {
		for i := lo; i < hi; i++ {
			e.Step(xs[i&15])
			e.Grad(g)
		}
	})
}
