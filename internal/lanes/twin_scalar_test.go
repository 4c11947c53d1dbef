//go:build !(goexperiment.simd && amd64)

package lanes

// forceScalar runs f: this build has only the scalar path.
func forceScalar(f func()) { f() }

// hasTwins reports false: this build has no lane path.
func hasTwins() bool { return false }
