//go:build !(goexperiment.simd && amd64)

package lanes

// The float32 lane stubs of the plain build (tbptt32.go, outer32.go); never
// called, useLanes being false.

func dot4x32Lanes(a *[4]float32, w, x []float32)                        { panic(unreachable) }
func addMulT32Lanes(z, w, d []float32)                                  { panic(unreachable) }
func outerSum32Lanes(g, d []float32, x [][]float32, R, m int, set bool) { panic(unreachable) }
