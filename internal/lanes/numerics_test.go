package lanes

import (
	"math"
	"strings"
	"testing"
)

// The float32 engine's numerics name the float64 build's and the float32
// kernels' version, so that a change of either makes earlier float32 runs
// another build's; version 1 is written without its number, as the runs
// before the version existed were labelled.
func TestFloat32Numerics(t *testing.T) {
	for _, tc := range []struct {
		n       string
		version int
		want    string
	}{
		{"simd/1", 1, "simd/1/f32"},
		{"scalar", 1, "scalar/f32"},
		{"simd/1", 2, "simd/1/f32/2"},
		{"simd/2", 2, "simd/2/f32/2"},
		{"scalar", 3, "scalar/f32/3"},
	} {
		if got := float32Numerics(tc.n, tc.version); got != tc.want {
			t.Errorf("float32Numerics(%q, %d) = %q, want %q", tc.n, tc.version, got, tc.want)
		}
	}
	if got, want := Float32Numerics("simd/1"), float32Numerics("simd/1", Float32NumericsVersion); got != want {
		t.Errorf("Float32Numerics(simd/1) = %q, want %q", got, want)
	}
}

// The platform suffix: none on the reference platform, the architecture and
// what differs elsewhere.
func TestPlatformSuffix(t *testing.T) {
	for _, tc := range []struct {
		goarch        string
		fuses, expFMA bool
		want          string
	}{
		{"amd64", false, true, ""},
		{"amd64", true, true, "/amd64-fma"},
		{"amd64", false, false, "/amd64-exp-nofma"},
		{"amd64", true, false, "/amd64-fma-exp-nofma"},
		{"arm64", true, false, "/arm64-fma"},
		{"arm64", true, true, "/arm64-fma"},
		{"386", false, false, "/386"},
	} {
		if got := platformSuffix(tc.goarch, tc.fuses, tc.expFMA); got != tc.want {
			t.Errorf("platformSuffix(%q, %v, %v) = %q, want %q", tc.goarch, tc.fuses, tc.expFMA, got, tc.want)
		}
	}
}

// The probe tells the two roundings apart: 0 unfused, −2⁻⁶⁰ fused, and
// math.FMA, which always fuses, gives the fused value.
func TestFusesMulAddProbe(t *testing.T) {
	x, y, z := 1+0x1p-30, 1-0x1p-30, -1.0
	if got := math.FMA(x, y, z); got != -0x1p-60 {
		t.Fatalf("math.FMA = %g, want -2⁻⁶⁰", got)
	}
	if got := fusesMulAdd(x, y, z); got != 0 && got != -0x1p-60 {
		t.Errorf("fusesMulAdd = %g, want 0 or -2⁻⁶⁰", got)
	}
	if got, want := Numerics(), Path(); !strings.HasPrefix(got, want) {
		t.Errorf("Numerics() = %q, not starting with the path %q", got, want)
	}
}
