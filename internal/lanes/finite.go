package lanes

// AllFinite reports whether every entry of x is finite (neither ±Inf nor
// NaN). It tests each entry as
//
//	x − x = 0   (NaN for ±Inf and NaN)
//
// the lane path summing x − x over quads in four accumulators, which stay
// 0 unless an entry is not finite.
func AllFinite(x []float64) bool {
	n4 := 0
	if useLanes {
		n4 = len(x) &^ 3
		if n4 > 0 {
			ok := allFiniteLanes(x[:n4])
			clearUpper()
			if !ok {
				return false
			}
		}
	}
	for _, v := range x[n4:] {
		if v-v != 0 {
			return false
		}
	}
	return true
}
