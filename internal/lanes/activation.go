package lanes

import "math"

// Sigmoid writes the logistic function of every src[i] into dst[i] (dst and
// src may be the same slice; dst must be at least as long as src):
//
//	σ(a) = 1 / (1 + e^(−a))
//
// The scalar path evaluates exactly this with math.Exp; the lane path with a
// lane exponential accurate to about 1 ulp.
func Sigmoid(dst, src []float64) {
	dst = dst[:len(src)]
	if useLanes {
		sigmoidLanes(dst, src)
		clearUpper()
		return
	}
	for i, a := range src {
		dst[i] = 1 / (1 + math.Exp(-a))
	}
}

// Tanh writes tanh(src[i]) into dst[i] (dst and src may be the same slice).
// The scalar path is math.Tanh; the lane path evaluates math.Tanh's own
// formulas (a rational function below |x| = 0.625, 1 − 2/(e^(2|x|)+1) above,
// ±1 beyond |x| = 44) with the lane exponential.
func Tanh(dst, src []float64) {
	dst = dst[:len(src)]
	if useLanes {
		tanhLanes(dst, src)
		clearUpper()
		return
	}
	for i, a := range src {
		dst[i] = math.Tanh(a)
	}
}

// Exp writes e^(src[i]) into dst[i]. The scalar path is math.Exp.
func Exp(dst, src []float64) {
	dst = dst[:len(src)]
	if useLanes {
		expLanes(dst, src)
		clearUpper()
		return
	}
	for i, a := range src {
		dst[i] = math.Exp(a)
	}
}
