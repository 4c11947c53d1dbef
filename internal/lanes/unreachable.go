//go:build !(goexperiment.simd && amd64)

package lanes

// unreachable is the panic of the lane stubs of the scalar build (scalar.go).
const unreachable = "lanes: lane kernel called without lane support"
