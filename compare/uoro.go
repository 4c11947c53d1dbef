package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// UOROMaxZ is the largest standardized deviation |mean − exact|/s.e. a
// coordinate of a passing UORO check may have.
const UOROMaxZ = 5

// UOROFalseAlarm is the probability, under unbiasedness and normality of the
// mean, with which the global test of CheckUORO fails: its threshold is the
// χ²_d quantile at 1 − UOROFalseAlarm.
const UOROFalseAlarm = 1e-6

// uoroRank is the smallest eigenvalue of the sample covariance, relative to
// its largest, whose direction enters the global statistic of CheckUORO.
const uoroRank = 1e-9

// UOROStats is the outcome of CheckUORO.
type UOROStats struct {
	Draws     int
	Dims      int       // d: the principal directions of S that enter T² (at most the cell parameters)
	MaxZ      float64   // max_i |mean_i − exact_i| / s.e._i
	T2        float64   // Hotelling's N·dᵀS⁺d of the mean's deviation d over those directions
	Threshold float64   // χ²_d quantile at 1 − UOROFalseAlarm
	Exact     Agreement // predictions and head gradients against DenseRTRL
}

// Pass reports whether every coordinate is within UOROMaxZ standard errors,
// the global statistic under its threshold, and the exact parts exact.
func (s UOROStats) Pass() bool {
	return s.MaxZ <= UOROMaxZ && s.T2 <= s.Threshold && s.Exact.Pass()
}

// CheckUOROExactParts compares what forward.UORO computes exactly, its
// predictions y_1..y_T and the gradients of y_T with respect to w_out and
// b_out, with the reference (full BPTT) on one random trajectory.
func CheckUOROExactParts(r *reference.Reference, shape arch.Dense, tr Trajectory, rng *rand.Rand, seed uint64) (Agreement, error) {
	u := forward.NewUORO(shape, seed)
	fillUniform(rng, u.Params(), tr.Scale)
	params := append([]float64(nil), u.Params()...)
	ys, want, err := r.Dense(shape, params, tr.Xs, nil)
	if err != nil {
		return Agreement{}, err
	}
	got := make([]float64, len(tr.Xs))
	for t, x := range tr.Xs {
		got[t] = u.Step(x)
	}
	g := make([]float64, shape.NumParams())
	u.Grad(g)
	off := shape.OffOut()
	return Measure(got, ys).Worst(Measure(g[off:], want[off:])), nil
}

// CheckUORO tests that forward.UORO is unbiased on one fixed trajectory:
// draws independent runs (one engine seeded with seed, Reset between runs)
// each give an estimate g_n of ∂y_T/∂θ, and their mean must agree with exact
// RTRL's gradient (forward.DenseRTRL) within the sampling error. With s.e._i
// = sqrt(S_ii/N) from the sample covariance S of the cell-parameter
// coordinates, each coordinate must satisfy |mean_i − exact_i| ≤ 5·s.e._i, and
// Hotelling's T² = N·dᵀS⁺d over the d principal directions of S (eigenvalues
// above 10⁻⁹ of the largest; approximately χ²_d when N ≫ d) must stay under
// its 1 − 10⁻⁶ quantile. Predictions and head gradients are exact and must
// agree to Tolerance. The estimates span at most 2H·T dimensions (each step
// adds νᵀ·∂F/∂θ, linear in ν ∈ ℝ^{2H}): only with T > P/(2H) can every
// direction enter T².
func CheckUORO(shape arch.Dense, params []float64, xs [][]float64, draws int, seed uint64, defect forward.Defect) (UOROStats, error) {
	n := shape.NumParams()
	d := shape.NumCellParams()
	if draws <= d {
		panic(fmt.Sprintf("compare: %d UORO draws for %d dimensions", draws, d))
	}
	ex := forward.NewDenseRTRL(shape)
	copy(ex.Params(), params)
	ys := make([]float64, len(xs))
	for t, x := range xs {
		ys[t] = ex.Step(x)
	}
	exact := make([]float64, n)
	ex.Grad(exact)

	u := forward.NewUORO(shape, seed)
	copy(u.Params(), params)
	u.Defect = defect
	st := UOROStats{Draws: draws, Dims: d}
	g := make([]float64, n)
	sum := make([]float64, d)
	cross := mat.NewSymDense(d, nil)
	got := make([]float64, len(xs))
	for range draws {
		u.Reset()
		for t, x := range xs {
			got[t] = u.Step(x)
		}
		u.Grad(g)
		st.Exact = st.Exact.Worst(Measure(got, ys)).Worst(Measure(g[d:], exact[d:]))
		cell := g[:d]
		for i, v := range cell {
			sum[i] += v
		}
		cross.SymRankOne(cross, 1, mat.NewVecDense(d, cell))
	}
	N := float64(draws)
	mean := make([]float64, d)
	for i := range mean {
		mean[i] = sum[i] / N
	}
	// S = (Σ g gᵀ − N·mean·meanᵀ)/(N − 1).
	cov := mat.NewSymDense(d, nil)
	cov.SymRankOne(cross, -N, mat.NewVecDense(d, mean))
	cov.ScaleSym(1/(N-1), cov)
	dev := mat.NewVecDense(d, nil)
	for i := range mean {
		dev.SetVec(i, mean[i]-exact[i])
		se := math.Sqrt(cov.At(i, i) / N)
		z := math.Abs(mean[i]-exact[i]) / se
		if se == 0 && mean[i] == exact[i] {
			z = 0
		}
		st.MaxZ = math.Max(st.MaxZ, z)
	}
	// T² over the principal subspace of S: directions whose variance is
	// below uoroRank of the largest (contributions of early steps decayed
	// through many Jacobians, or a degenerate estimator) are left to the
	// per-coordinate test.
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return st, fmt.Errorf("compare: UORO covariance eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := vals[len(vals)-1]
	st.Dims = 0
	for k, l := range vals {
		if l <= uoroRank*top {
			continue
		}
		st.Dims++
		proj := mat.Dot(vecs.ColView(k), dev)
		st.T2 += N * proj * proj / l
	}
	if st.Dims == 0 {
		st.T2 = math.Inf(1)
		return st, nil
	}
	st.Threshold = distuv.ChiSquared{K: float64(st.Dims)}.Quantile(1 - UOROFalseAlarm)
	return st, nil
}
