//go:build !(goexperiment.simd && amd64)

package lanes

import "testing"

// TestPathIsScalar checks that a build without GOEXPERIMENT=simd on amd64
// runs the scalar reference loops.
func TestPathIsScalar(t *testing.T) {
	if Path() != "scalar" {
		t.Errorf("Path() = %q, want scalar", Path())
	}
}
