package lanes

// Path returns the implementation this binary runs: "simd" (four float64
// lanes with AVX2 and FMA) or "scalar" (the reference loops).
func Path() string {
	if useLanes {
		return "simd"
	}
	return "scalar"
}
