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
		k.A[j], k.B[j], k.E[j], k.K[8*j], k.K[8*j+7] = 0.1, 0.5, 0.1, 0.1, 0.1
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
