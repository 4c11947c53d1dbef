//go:build goexperiment.simd && amd64

package lanes

// forceScalar runs f on the scalar path of every kernel (the lane switches
// off for its duration), so that one binary runs both twins of a kernel.
// Tests of this package run one at a time, so nothing else sees the switch.
func forceScalar(f func()) {
	lanes, eight := useLanes, eightLanes
	useLanes, eightLanes = false, false
	defer func() { useLanes, eightLanes = lanes, eight }()
	f()
}

// hasTwins reports whether this binary has a lane path to compare with the
// scalar one (the CPU has AVX2 and FMA).
func hasTwins() bool { return useLanes }
