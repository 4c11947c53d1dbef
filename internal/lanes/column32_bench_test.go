package lanes

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
)

// BenchmarkFloat32Kernels times the float32 kernels of the column networks
// beside the float64 kernels they replace, at the shape of Columnar 6 on
// 275 inputs (ns per call; the engine calls each once per step):
//
//	GOEXPERIMENT=simd go test -run '^$' -bench BenchmarkFloat32Kernels ./internal/lanes
func BenchmarkFloat32Kernels(b *testing.B) {
	const m, u = 275, 6
	size := arch.ColumnParams(m)
	rng := rand.New(rand.NewPCG(1, 2))
	b32, b64 := f32s(rng, u*size, 0.1)
	x32, x64 := f32s(rng, Padded32(m), 1)
	ht32, ht64 := f32s(rng, u*size, 0.1)
	ct32, ct64 := f32s(rng, u*size, 0.1)
	z32, z64 := f32s(rng, u*size, 0.1)
	v32, v64 := make([]float32, u*size), make([]float64, u*size)
	for i := range v32 {
		v32[i], v64[i] = 1, 1
	}
	h, f, c := make([]float64, u), make([]float64, u), make([]float64, u)
	for j := range u {
		h[j], f[j], c[j] = 0.1, 0.5, 0.01
	}
	var g [4][]float64
	for q := range g {
		g[q] = make([]float64, u)
	}
	k := NewTraceCoef(u)
	for j := range u {
		// Every gate's κ nonzero: a gate block without a drive from x decays
		// geometrically into subnormals over the iterations, and the time per
		// call grew with them (17, 22 and 56 µs at 200, 2,000 and 20,000).
		k.A[j], k.B[j], k.E[j], k.K[8*j+7] = 0.1, 0.5, 0.1, 0.1
		k.K[8*j], k.K[8*j+1], k.K[8*j+2] = 0.1, 0.1, 0.1
	}
	b.Run("Preact/float64", func(b *testing.B) {
		for b.Loop() {
			Preact(g[0], g[1], g[2], g[3], h, b64, x64[:m])
		}
	})
	b.Run("Preact/float32", func(b *testing.B) {
		for b.Loop() {
			Input32(x32, x64[:m])
			Preact32(g[0], g[1], g[2], g[3], h, b32, x32, m)
		}
	})
	b.Run("StageTraceFold/float64", func(b *testing.B) {
		for b.Loop() {
			StageTraceFold(ht64, ct64, x64[:m], f, h, k, z64, 0.9, c, true)
		}
	})
	b.Run("StageTraceFold/float32", func(b *testing.B) {
		for b.Loop() {
			StageTraceFold32(ht32, ct32, x32[:m], f, h, k, z32, 0.9, c, true)
		}
	})
	b.Run("RMSProp/float64", func(b *testing.B) {
		for b.Loop() {
			RMSProp(b64, z64, v64, 1e-9, 1e-9, 0.9999, 1e-8)
		}
	})
	b.Run("RMSProp/float32", func(b *testing.B) {
		for b.Loop() {
			RMSProp32(b32, z32, v32, 1e-9, 1e-9, 0.9999, 1e-8)
		}
	})
}

// BenchmarkRMSProp32 times RMSProp32 at the size of Columnar 7's columns
// on trace patterning's 12 inputs (7 blocks of 56 entries), ns per call:
//
//	GOEXPERIMENT=simd go test -run '^$' -bench BenchmarkRMSProp32 ./internal/lanes
func BenchmarkRMSProp32(b *testing.B) {
	n := 7 * arch.ColumnParams(12)
	rng := rand.New(rand.NewPCG(1, 2))
	th, _ := f32s(rng, n, 0.1)
	u, _ := f32s(rng, n, 0.1)
	v := make([]float32, n)
	for b.Loop() {
		RMSProp32(th, u, v, 1e-3, 3e-4, 0.999, 0.01)
	}
}

// BenchmarkCell32 times Cell32 on a stage of 7 columns (Columnar 7), ns
// per call.
func BenchmarkCell32(b *testing.B) {
	const u = 7
	rng := rand.New(rand.NewPCG(1, 2))
	var a [8][]float64
	for q := range a {
		a[q] = make([]float64, u)
	}
	pre := make([][]float64, 4)
	for q := range pre {
		_, pre[q] = f32s(rng, u, 2)
	}
	for b.Loop() {
		for q := range 4 {
			copy(a[q], pre[q])
		}
		Cell32(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
	}
}

// BenchmarkTraceScalars32 times TraceScalars32 on a stage of 7 columns of
// 12 inputs (Columnar 7 on trace patterning), ns per call.
func BenchmarkTraceScalars32(b *testing.B) {
	const u, m = 7, 12
	rng := rand.New(rand.NewPCG(1, 2))
	blocks, _ := f32s(rng, u*arch.ColumnParams(m), 0.5)
	var a [6][]float64
	for q := range a {
		a[q] = make([]float64, u)
		for j := range a[q] {
			a[q][j] = rng.Float64()
		}
	}
	k := NewTraceCoef(u)
	for b.Loop() {
		TraceScalars32(k, a[0], a[1], a[2], a[3], a[4], a[5], blocks, m)
	}
}
