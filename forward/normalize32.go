package forward

import "github.com/ccn-go/ccn/internal/lanes"

// updateAll32 is updateAll for the float32 engine, bitwise its values:
// lanes.Normalize32 (eight features per instruction where the CPU has
// eight float64 lanes) in place of lanes.Normalize.
func (z *normalizer) updateAll32(lo int, h, out []float64) {
	if !z.enabled || len(h) < 4 {
		z.updateAll(lo, h, out)
		return
	}
	lanes.Normalize32(out, h, z.mean[lo:], z.variance[lo:], z.scale[lo:], z.decay, z.oneMinus, z.eps)
}
