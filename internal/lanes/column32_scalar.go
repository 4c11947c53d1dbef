//go:build !(goexperiment.simd && amd64)

package lanes

// The lane paths of the float32 column kernels; never called in this build.

func input32Lanes(dst []float32, x []float64)                               { panic(unreachable) }
func preact32Lanes(ai, af, ag, ao, h []float64, blocks, x []float32, m int) { panic(unreachable) }
func stageTraceFold32Lanes(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	panic(unreachable)
}

const flatMaxM32 = 0

func stageTraceFold32Flat(ht, ct, x []float32, f, hp []float64, k TraceCoef, z []float32, d float64, c []float64, add bool) {
	panic(unreachable)
}

func cell32Lanes(ai, af, ag, ao, cp, c, tc, h []float64) { panic(unreachable) }

func eightLanes32() bool { return false }

func normalize32Lanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	panic(unreachable)
}

func stage32Four(ai, af, ag, ao, hp, cp, c, tc, h []float64, blocks, x []float32, m int) {
	panic(unreachable)
}

func traceScalars32Lanes(k TraceCoef, i, f, g, o, cp, tc []float64, blocks []float32, m int) {
	panic(unreachable)
}
