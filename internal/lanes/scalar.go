//go:build !(goexperiment.simd && amd64)

package lanes

// useLanes is false without GOEXPERIMENT=simd on amd64: every kernel runs its
// scalar reference loop. The lane stubs below are never called.
const useLanes = false

func rmspropLanes(theta, u, v []float64, s, alpha, b, eps, tau float64) { panic(unreachable) }
func rmspropFoldLanes(theta, u, v, t []float64, s, alpha, b, eps, d, c, tau float64) {
	panic(unreachable)
}

func sigmoidLanes(dst, src []float64)                      { panic(unreachable) }
func tanhLanes(dst, src []float64)                         { panic(unreachable) }
func expLanes(dst, src []float64)                          { panic(unreachable) }
func dot4Lanes(a *[4]float64, w, x []float64)              { panic(unreachable) }
func scaleAddLanes(z []float64, d, c float64, t []float64) { panic(unreachable) }
func addScaledLanes(z []float64, c float64, t []float64)   { panic(unreachable) }
func normalizeLanes(out, h, mean, variance, scale []float64, beta, oneMinus, eps float64) {
	panic(unreachable)
}
func outerSumLanes(g, d []float64, x [][]float64, R, m int) { panic(unreachable) }
func addMulTLanes(z, w, d []float64)                        { panic(unreachable) }

func clearUpper() {}

func preactLanes(ai, af, ag, ao, h, blocks, x []float64) { panic(unreachable) }
func cellLanes(ai, af, ag, ao, cp, c, tc, h []float64)   { panic(unreachable) }
func columnTraceLanes(ht, ct, x []float64, f, A, B, E, D, ki, kf, kg, hp float64) {
	panic(unreachable)
}
func lstmDeltaLanes(da, dh, carry, gates, tc, cp []float64) { panic(unreachable) }
func lstmBackwardLanes(da, dh, carry, next, whh []float64, gates, tc, cp [][]float64) {
	panic(unreachable)
}
func sumWindowLanes(g, d []float64, n4, w int)                         { panic(unreachable) }
func allFiniteLanes(x []float64) bool                                  { panic(unreachable) }
func stageLanes(ai, af, ag, ao, hp, cp, c, tc, h, blocks, x []float64) { panic(unreachable) }

// The stage-wide trace and gradient kernels (package forward's learning
// stage).
func scaleAddBlocksLanes(z []float64, d float64, c, t []float64, n int) { panic(unreachable) }
func scaleBlocksLanes(z, c, t []float64, n int)                         { panic(unreachable) }
func traceScalarsLanes(k TraceCoef, i, f, g, o, cp, tc, blocks []float64, m int) {
	panic(unreachable)
}
func stageTraceLanes(ht, ct, x, f, hp []float64, k TraceCoef) { panic(unreachable) }
func stageTraceFoldLanes(ht, ct, x, f, hp []float64, k TraceCoef, z []float64, d float64, c []float64, add bool) {
	panic(unreachable)
}

// Recurrent Trace Units (package forward's RTU).
func rtuTracesLanes(a1, a2, b1, b2, x []float64, kp, kq, g, phi, kpx, kqx float64) {
	panic(unreachable)
}
func combineLanes(z []float64, c1 float64, t1 []float64, c2 float64, t2 []float64) {
	panic(unreachable)
}
