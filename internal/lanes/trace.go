package lanes

// Trace advances the RTRL traces of one gate's input weights of an LSTM
// column (package forward documents the recurrence), for k = 0..len(x)−1:
//
//	c' = f·cs[k] + A·hs[k] + κ·x[k]
//	hs[k] = B·c' + E·hs[k]      cs[k] = c'
//
// Both paths perform the same operations in the same order and agree bitwise.
func Trace(hs, cs, x []float64, f, A, B, E, kappa float64) {
	hs, cs = hs[:len(x)], cs[:len(x)]
	if useLanes {
		traceLanes(hs, cs, x, f, A, B, E, kappa)
		clearUpper()
		return
	}
	traceScalar(hs, cs, x, f, A, B, E, kappa)
}

func traceScalar(hs, cs, x []float64, f, A, B, E, kappa float64) {
	for k, xk := range x {
		hOld := hs[k]
		cNew := f*cs[k] + A*hOld + kappa*xk
		cs[k] = cNew
		hs[k] = B*cNew + E*hOld
	}
}

// TraceOut advances the traces of the output gate's input weights, whose
// direct term enters h only:
//
//	c' = f·cs[k] + A·hs[k]
//	hs[k] = B·c' + E·hs[k] + D·x[k]      cs[k] = c'
//
// Both paths agree bitwise.
func TraceOut(hs, cs, x []float64, f, A, B, E, D float64) {
	hs, cs = hs[:len(x)], cs[:len(x)]
	if useLanes {
		traceOutLanes(hs, cs, x, f, A, B, E, D)
		clearUpper()
		return
	}
	traceOutScalar(hs, cs, x, f, A, B, E, D)
}

func traceOutScalar(hs, cs, x []float64, f, A, B, E, D float64) {
	for k, xk := range x {
		hOld := hs[k]
		cNew := f*cs[k] + A*hOld
		cs[k] = cNew
		hs[k] = B*cNew + E*hOld + D*xk
	}
}
