package experiments

import "math"

// windowError is the mean of the last w squared errors (fewer at the start):
//
//	L(t−w, t) = (1/w)·Σ_{s=t−w+1..t} (y_s − G_s)²
//
// The running sum is recomputed exactly every time the ring wraps, so rounding
// cannot accumulate over a long run.
type windowError struct {
	ring []float64
	next int // index of the oldest entry once full
	full bool
	sum  float64

	lifetime float64 // Σ of every squared error
	n        int
}

func newWindowError(w int) *windowError { return &windowError{ring: make([]float64, w)} }

// fits reports whether sq can be added without making a sum NaN or ±Inf.
func (e *windowError) fits(sq float64) bool {
	return !math.IsNaN(sq) && !math.IsInf(e.lifetime+sq, 0) && !math.IsInf(e.sum+sq, 0)
}

func (e *windowError) add(sq float64) {
	e.sum += sq - e.ring[e.next]
	e.ring[e.next] = sq
	e.next++
	if e.next == len(e.ring) {
		e.next, e.full = 0, true
		s := 0.0
		for _, v := range e.ring {
			s += v
		}
		e.sum = s
	}
	e.lifetime += sq
	e.n++
}

// mean returns the windowed mean squared error (0 before the first error).
func (e *windowError) mean() float64 {
	k := e.next
	if e.full {
		k = len(e.ring)
	}
	if k == 0 {
		return 0
	}
	return e.sum / float64(k)
}

// lifetimeMean returns the mean squared error over every step so far.
func (e *windowError) lifetimeMean() float64 {
	if e.n == 0 {
		return 0
	}
	return e.lifetime / float64(e.n)
}

// returnWindow keeps the returns G_s of the last w steps, for the variance of
// the return over the error's window,
//
//	Var = (1/k)·Σ_s (G_s − Ḡ)²,   Ḡ = (1/k)·Σ_s G_s
//
// over the k ≤ w steps kept: the error of the best constant prediction there.
type returnWindow struct {
	ring []float64
	next int
	full bool
}

func newReturnWindow(w int) *returnWindow { return &returnWindow{ring: make([]float64, w)} }

func (r *returnWindow) add(g float64) {
	r.ring[r.next] = g
	r.next++
	if r.next == len(r.ring) {
		r.next, r.full = 0, true
	}
}

// variance returns the variance of the kept returns (two passes; 0 when
// none are kept).
func (r *returnWindow) variance() float64 {
	kept := r.ring[:r.next]
	if r.full {
		kept = r.ring
	}
	if len(kept) == 0 {
		return 0
	}
	mean := 0.0
	for _, g := range kept {
		mean += g
	}
	mean /= float64(len(kept))
	v := 0.0
	for _, g := range kept {
		v += (g - mean) * (g - mean)
	}
	return v / float64(len(kept))
}
