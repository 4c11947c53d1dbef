package lanes

import "testing"

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
