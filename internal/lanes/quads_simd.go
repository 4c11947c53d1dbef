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

// The kernels of small, fixed shapes (a column's block, a stage's columns)
// address their slices through base pointers: the exported wrappers check
// every length once, and the loops then run without bounds checks or the
// setup of quads, which cost more than the arithmetic at a dozen entries
// (callgrind: a column's four dot products took about 400 instructions).

// base is the address of s[0] (s non-empty).
func base(s []float64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }

// ldAt loads p[i:i+4]; stAt stores v there. The caller guarantees i+4 ≤ len.
func ldAt(p unsafe.Pointer, i int) f64x4 {
	return archsimd.LoadFloat64x4((*[4]float64)(unsafe.Add(p, 8*i)))
}

func stAt(v f64x4, p unsafe.Pointer, i int) { v.Store((*[4]float64)(unsafe.Add(p, 8*i))) }

// at is &p[i] as a float64 pointer.
func at(p unsafe.Pointer, i int) *float64 { return (*float64)(unsafe.Add(p, 8*i)) }
