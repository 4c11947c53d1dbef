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
