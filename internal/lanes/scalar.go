//go:build !(goexperiment.simd && amd64)

package lanes

// useLanes is false without GOEXPERIMENT=simd on amd64: every kernel runs its
// scalar reference loop. The lane stubs below are never called.
const useLanes = false

func rmspropLanes(theta, u, v []float64, s, alpha, b, eps float64) { panic(unreachable) }
func sigmoidLanes(dst, src []float64)                              { panic(unreachable) }
func tanhLanes(dst, src []float64)                                 { panic(unreachable) }
func expLanes(dst, src []float64)                                  { panic(unreachable) }
