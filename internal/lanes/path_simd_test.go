//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"testing"
)

// TestPathIsSIMD checks that a GOEXPERIMENT=simd build on a CPU with AVX2
// and FMA runs the lane kernels (and the scalar ones otherwise).
func TestPathIsSIMD(t *testing.T) {
	want := "scalar"
	if archsimd.X86.AVX2() && archsimd.X86.FMA() {
		want = "simd"
	}
	if Path() != want {
		t.Errorf("Path() = %q, want %q", Path(), want)
	}
}
