//go:build goexperiment.simd && amd64

package lanes

import (
	"simd/archsimd"
	"unsafe"
)

// quads views the first ⌊len(s)/4⌋·4 elements of s as blocks of four. The
// lane loops index these blocks instead of reslicing s at every step, which
// leaves one bounds check per loop instead of several per vector (measured
// with callgrind: the RMSProp loop went from about 50 instructions per four
// entries to about 15).
func quads(s []float64) [][4]float64 {
	if len(s) < 4 {
		return nil
	}
	return unsafe.Slice((*[4]float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/4)
}

func load(p *[4]float64) f64x4 { return archsimd.LoadFloat64x4(p) }
