package compare

import (
	"math/rand/v2"
)

// InputKind selects how random inputs are drawn.
type InputKind int

const (
	Gaussian     InputKind = iota // x ~ N(0, 1)
	SparseBinary                  // x ∈ {0, 1}, each on with probability 0.2
	// PixelSparse: x ∈ {0, 1}, each on with probability 0.05, as sparse as
	// the pixel games' inputs (2-8% nonzero), where T-BPTT sums ∂W_ih over
	// the nonzero inputs only (package backward).
	PixelSparse
)

// onProbability is the probability that a binary input is on.
var onProbability = [...]float64{SparseBinary: 0.2, PixelSparse: 0.05}

func (k InputKind) String() string {
	switch k {
	case SparseBinary:
		return "sparse-binary"
	case PixelSparse:
		return "pixel-sparse"
	}
	return "gaussian"
}

// Trajectory is one random input sequence with the parameter scale used for it.
type Trajectory struct {
	Xs    [][]float64 // T rows of m inputs
	Kind  InputKind
	Scale float64 // parameters are drawn U(−Scale, Scale)
}

// Scales are the parameter scales the checks cycle through: small weights
// (near-linear gates), moderate ones, and large ones (saturated gates).
var scales = [...]float64{0.1, 0.5, 1.5}

// newRand returns the deterministic generator used for case i of a suite seed.
func newRand(seed uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(i)*0x9e3779b97f4a7c15+1))
}

// randomTrajectory draws a trajectory of length T with m inputs; the i-th
// trajectory of a suite cycles through the scales and input kinds.
func randomTrajectory(rng *rand.Rand, i, T, m int) Trajectory {
	return drawTrajectory(rng, InputKind(i%2), scales[i%len(scales)], T, m)
}

// pixelTrajectory is the i-th trajectory of a case with pixel inputs: the
// scales cycle as randomTrajectory's, every input PixelSparse.
func pixelTrajectory(rng *rand.Rand, i, T, m int) Trajectory {
	return drawTrajectory(rng, PixelSparse, scales[i%len(scales)], T, m)
}

// drawTrajectory draws T inputs of length m of the given kind.
func drawTrajectory(rng *rand.Rand, kind InputKind, scale float64, T, m int) Trajectory {
	tr := Trajectory{Xs: make([][]float64, T), Kind: kind, Scale: scale}
	for t := range tr.Xs {
		x := make([]float64, m)
		for j := range x {
			if kind == Gaussian {
				x[j] = rng.NormFloat64()
			} else if rng.Float64() < onProbability[kind] {
				x[j] = 1
			}
		}
		tr.Xs[t] = x
	}
	return tr
}

// fillUniform sets every element of dst to U(−scale, scale).
func fillUniform(rng *rand.Rand, dst []float64, scale float64) {
	for i := range dst {
		dst[i] = scale * (2*rng.Float64() - 1)
	}
}

// weights returns T random linear-combination weights a_t ~ N(0, 1).
func weights(rng *rand.Rand, T int) []float64 {
	a := make([]float64, T)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	return a
}

// checkTimes returns the 1-based steps at which single-prediction gradients are
// compared: the first, a middle one and the last.
func checkTimes(T int) []int {
	ts := []int{1, (T + 1) / 2, T}
	out := ts[:0]
	for _, t := range ts {
		if len(out) == 0 || out[len(out)-1] != t {
			out = append(out, t)
		}
	}
	return out
}
