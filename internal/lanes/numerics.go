package lanes

import "strconv"

// NumericsVersion numbers the arithmetic of the lane kernels: the order of
// summation, the fused operations and the polynomial of the lane exponential.
// It changes whenever a change to a lane kernel can change the bits a lane
// build computes, so that runs made by builds whose numerics differ are never
// taken for one another (a summary records Numerics, and a sweep refuses to
// resume across a change). The scalar path's arithmetic is Go's own and is
// versioned with it.
const NumericsVersion = 1

// Numerics names the numerics of this binary's kernels: Path() and, for the
// lane path, NumericsVersion, as in "simd/1" or "scalar".
func Numerics() string {
	if useLanes {
		return Path() + "/" + strconv.Itoa(NumericsVersion)
	}
	return Path()
}

// Float32NumericsVersion numbers the arithmetic of the float32 engine's
// kernels (the float32 functions of this package and the float32 recursions
// that call them), in both paths: it changes whenever a change can change the
// bits the float32 engine computes.
const Float32NumericsVersion = 2

// Float32Numerics names the numerics of the float32 engine in a build whose
// float64 kernels compute with numerics n (Numerics()): n followed by "/f32"
// and, from the float32 kernels' second version on, their version, as in
// "simd/1/f32" (version 1) or "simd/1/f32/2".
func Float32Numerics(n string) string { return float32Numerics(n, Float32NumericsVersion) }

func float32Numerics(n string, version int) string {
	if version == 1 {
		return n + "/f32"
	}
	return n + "/f32/" + strconv.Itoa(version)
}
