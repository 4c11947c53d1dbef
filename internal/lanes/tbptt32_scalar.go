//go:build !(goexperiment.simd && amd64)

package lanes

// The float32 lane stubs of the plain build (tbptt32.go, outer32.go); never
// called, useLanes being false.

func dot4x32Lanes(a *[4]float32, w, x []float32)                        { panic(unreachable) }
func addMulT32Lanes(z, w, d []float32)                                  { panic(unreachable) }
func outerSum32Lanes(g, d []float32, x [][]float32, R, m int, set bool) { panic(unreachable) }

func lstmBackward32H4(da, dh, carry, whh []float32, gates, tc, cp [][]float32) { panic(unreachable) }
func sumWindow32Lanes(g, d []float32)                                          { panic(unreachable) }
func outer32Set16(g, d []float32, x [][]float32, m int)                        { panic(unreachable) }
func lstmGates32Lanes(g []float32)                                             { panic(unreachable) }
func lstmTanh32Lanes(dst, src []float32)                                       { panic(unreachable) }
func dot4x32Rows4(a *[4]float32, w, x []float32)                               { panic(unreachable) }
