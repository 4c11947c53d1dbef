package lanes

// traceScalar advances the RTRL traces of one gate's input weights of an
// LSTM column (ColumnTrace), for k = 0..len(x)−1:
//
//	c' = f·cs[k] + A·hs[k] + κ·x[k]
//	hs[k] = B·c' + E·hs[k]      cs[k] = c'
func traceScalar(hs, cs, x []float64, f, A, B, E, kappa float64) {
	hs, cs = hs[:len(x)], cs[:len(x)]
	for k, xk := range x {
		hOld := hs[k]
		cNew := f*cs[k] + A*hOld + kappa*xk
		cs[k] = cNew
		hs[k] = B*cNew + E*hOld
	}
}

// traceOutScalar advances the traces of the output gate's input weights,
// whose direct term enters h only:
//
//	c' = f·cs[k] + A·hs[k]
//	hs[k] = B·c' + E·hs[k] + D·x[k]      cs[k] = c'
func traceOutScalar(hs, cs, x []float64, f, A, B, E, D float64) {
	hs, cs = hs[:len(x)], cs[:len(x)]
	for k, xk := range x {
		hOld := hs[k]
		cNew := f*cs[k] + A*hOld
		cs[k] = cNew
		hs[k] = B*cNew + E*hOld + D*xk
	}
}
