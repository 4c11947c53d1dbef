// Package float lets code generic over arch.Float hand its vectors to the
// typed kernels of package lanes without copying: Is32 says which element
// type an instantiation has, and F32 and F64 view a []T as the slice of its
// actual type (the caller has checked Is32). The views share memory with
// their argument and cost nothing but the branch.
package float

import "unsafe"

// Is32 reports whether T is float32 (else it is float64).
func Is32[T float32 | float64]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// F32 returns s as a []float32; T must be float32.
func F32[T float32 | float64](s []T) []float32 {
	if !Is32[T]() {
		panic("float: F32 of a []float64")
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// F64 returns s as a []float64; T must be float64.
func F64[T float32 | float64](s []T) []float64 {
	if Is32[T]() {
		panic("float: F64 of a []float32")
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
