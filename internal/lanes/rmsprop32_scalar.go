//go:build !(goexperiment.simd && amd64)

package lanes

// The lane paths of the float32 RMSProp kernels; never called in this build.

func rmsprop32Lanes(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	panic(unreachable)
}
func rmspropFold32Lanes(theta, u, v, t []float32, s, alpha, b, eps, d, c float64, tau float32) {
	panic(unreachable)
}

func rmsprop32PartLanes(theta, u, v []float32, s, alpha, b, eps float64, tau float32) {
	panic(unreachable)
}

func rmsprop32HeadLanes(theta, u, v []float32, nh int, s, alphaHead, alpha, b, eps float64, tau float32) {
	panic(unreachable)
}
