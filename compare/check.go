package compare

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// truth answers, for one trajectory, what the engine must reproduce.
type truth struct {
	// ys are the predictions y_1..y_T.
	ys []float64
	// at returns the gradient of y_t (1-based) under the engine's truncation.
	at func(t int) ([]float64, error)
	// combo returns the gradient of Σ_t a_t·y_t, each y_t under the truncation.
	combo func(a []float64) ([]float64, error)
}

// agree steps an engine (its Step and Grad) through xs and measures its
// predictions, its gradients at the check times and its gradient of a random
// combination Σ_t a_t·y_t against ref.
func agree(step func(x []float64) float64, grad func(dst []float64), n int, xs [][]float64, rng *rand.Rand, ref truth) (Agreement, error) {
	T := len(xs)
	times := checkTimes(T)
	a := weights(rng, T)
	ys := make([]float64, T)
	g := make([]float64, n)
	combo := make([]float64, n)
	at := make(map[int][]float64, len(times))
	next := 0
	for t := 1; t <= T; t++ {
		ys[t-1] = step(xs[t-1])
		grad(g)
		for i, v := range g {
			combo[i] += a[t-1] * v
		}
		if next < len(times) && times[next] == t {
			at[t] = append([]float64(nil), g...)
			next++
		}
	}
	worst := Measure(ys, ref.ys)
	for _, t := range times {
		want, err := ref.at(t)
		if err != nil {
			return worst, fmt.Errorf("reference at t=%d: %w", t, err)
		}
		worst = worst.Worst(Measure(at[t], want))
	}
	want, err := ref.combo(a)
	if err != nil {
		return worst, fmt.Errorf("reference combination: %w", err)
	}
	return worst.Worst(Measure(combo, want)), nil
}

// oneHot returns the length-T weights selecting y_t.
func oneHot(T, t int) []float64 {
	a := make([]float64, T)
	a[t-1] = 1
	return a
}

// denseTruth is the reference for a dense LSTM (or a column, H = 1) under
// truncation k (0: full BPTT).
func denseTruth(r *reference.Reference, shape arch.Dense, params []float64, xs [][]float64, k int) (truth, error) {
	T := len(xs)
	ys, last, err := r.Dense(shape, params, xs, nil)
	if err != nil {
		return truth{}, err
	}
	tr := truth{ys: ys}
	if k == 0 || k >= T {
		tr.at = func(t int) ([]float64, error) {
			if t == T { // the run that gave ys: a = nil is y_T
				return last, nil
			}
			_, g, err := r.Dense(shape, params, xs, oneHot(T, t))
			return g, err
		}
		tr.combo = func(a []float64) ([]float64, error) {
			_, g, err := r.Dense(shape, params, xs, a)
			return g, err
		}
		return tr, nil
	}
	tr.at = func(t int) ([]float64, error) {
		_, g, err := r.DenseTruncated(shape, params, xs, t, k)
		return g, err
	}
	tr.combo = func(a []float64) ([]float64, error) {
		sum := make([]float64, shape.NumParams())
		for t := 1; t <= T; t++ {
			_, g, err := r.DenseTruncated(shape, params, xs, t, k)
			if err != nil {
				return nil, err
			}
			for i, v := range g {
				sum[i] += a[t-1] * v
			}
		}
		return sum, nil
	}
	return tr, nil
}

// columnEngine presents a forward.Column as a dense H = 1 engine with a
// prediction weight w_out: y = w_out·h, so ∂y/∂θ = w_out·∂h/∂θ and ∂y/∂w_out = h.
type columnEngine struct {
	col  *forward.Column
	wOut float64
}

func (c *columnEngine) Step(x []float64) float64 { return c.wOut * c.col.Step(x) }

func (c *columnEngine) Grad(dst []float64) {
	tr := c.col.Trace()
	for i, v := range tr {
		dst[i] = c.wOut * v
	}
	dst[len(tr)] = c.col.H()
}

// CheckColumn compares forward.Column (through y = w_out·h) with full BPTT on
// one random trajectory with m inputs.
func CheckColumn(r *reference.Reference, m int, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	shape := arch.Dense{Hidden: 1, Inputs: m}
	params := make([]float64, shape.NumParams())
	fillUniform(rng, params, tr.Scale)
	col := forward.NewColumn(m)
	copy(col.Params(), params[:shape.NumCellParams()])
	col.Defect = defect
	ref, err := denseTruth(r, shape, params, tr.Xs, 0)
	if err != nil {
		return Agreement{}, err
	}
	ce := &columnEngine{col: col, wOut: params[shape.OffOut()]}
	return agree(ce.Step, ce.Grad, shape.NumParams(), tr.Xs, rng, ref)
}

// CheckDenseRTRL compares forward.DenseRTRL with full BPTT.
func CheckDenseRTRL(r *reference.Reference, shape arch.Dense, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	e := forward.NewDenseRTRL(shape)
	fillUniform(rng, e.Params(), tr.Scale)
	e.Defect = defect
	params := append([]float64(nil), e.Params()...)
	ref, err := denseTruth(r, shape, params, tr.Xs, 0)
	if err != nil {
		return Agreement{}, err
	}
	return agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
}

// CheckTBPTT compares backward.TBPTT with truncation k (0: full) against the
// k-truncated reference.
func CheckTBPTT(r *reference.Reference, shape arch.Dense, k int, tr Trajectory, rng *rand.Rand, defect backward.Defect) (Agreement, error) {
	e := backward.NewTBPTT(shape, k)
	fillUniform(rng, e.Params(), tr.Scale)
	e.Defect = defect
	params := append([]float64(nil), e.Params()...)
	ref, err := denseTruth(r, shape, params, tr.Xs, k)
	if err != nil {
		return Agreement{}, err
	}
	return agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
}

// CheckNetwork compares forward.Network at topology top (frozen and learnable
// parameters drawn at random) with the reference graph of the same topology.
func CheckNetwork(r *reference.Reference, top arch.Network, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	net := forward.NewNetworkAt(top, forward.NetworkConfig{
		Inputs:           top.Inputs,
		FeaturesPerStage: top.LearningColumns(),
		MaxFeatures:      top.Features(),
		Norm:             top.Norm,
	})
	fillUniform(rng, net.Frozen(), tr.Scale)
	fillUniform(rng, net.Params(), tr.Scale)
	net.Defect = defect
	frozen := append([]float64(nil), net.Frozen()...)
	learn := append([]float64(nil), net.Params()...)
	ref, err := networkTruth(r, top, frozen, learn, nil, tr.Xs)
	if err != nil {
		return Agreement{}, err
	}
	return agree(net.Step, net.Grad, top.NumLearnable(), tr.Xs, rng, ref)
}
