package compare

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// frozenTracesNetwork returns a network at topology top that keeps its
// frozen columns' traces, every parameter drawn from U(−scale, scale).
func frozenTracesNetwork(top arch.Network, rng *rand.Rand, scale float64, defect forward.Defect) *forward.Network {
	net := forward.NewNetworkAt(top, forward.NetworkConfig{
		Inputs:           top.Inputs,
		FeaturesPerStage: top.LearningColumns(),
		MaxFeatures:      top.Features(),
		Norm:             top.Norm,
		FrozenTraces:     true,
	})
	fillUniform(rng, net.Frozen(), scale)
	fillUniform(rng, net.Params(), scale)
	net.Defect = defect
	return net
}

// CheckFrozenTraces compares a network that keeps its frozen columns'
// traces (forward.NetworkConfig.FrozenTraces) at topology top with the
// reference: FrozenGrad then Grad, as one vector [frozen, learnable],
// against the gradient of the reference graph in which every column reads
// the earlier features as constants (reference.NetworkAll with cut), which
// is the gradient along each column's own recurrence and head weight.
func CheckFrozenTraces(r *reference.Reference, top arch.Network, tr Trajectory, rng *rand.Rand, defect forward.Defect) (Agreement, error) {
	if top.NumStages() < 2 {
		panic(fmt.Sprintf("compare: frozen traces check of %v, which has no frozen stage", top.Stages))
	}
	net := frozenTracesNetwork(top, rng, tr.Scale, defect)
	frozen := append([]float64(nil), net.Frozen()...)
	learn := append([]float64(nil), net.Params()...)
	nf := len(frozen)
	grad := func(dst []float64) {
		net.FrozenGrad(dst[:nf])
		net.Grad(dst[nf:])
	}
	T := len(tr.Xs)
	full := func(a []float64) ([]float64, error) {
		_, gf, gl, err := r.NetworkAll(top, frozen, learn, tr.Xs, a, true)
		return append(gf, gl...), err
	}
	ys, _, _, err := r.NetworkAll(top, frozen, learn, tr.Xs, nil, true)
	if err != nil {
		return Agreement{}, err
	}
	ref := truth{
		ys:    ys,
		at:    func(t int) ([]float64, error) { return full(oneHot(T, t)) },
		combo: full,
	}
	return agree(net.Step, grad, nf+len(learn), tr.Xs, rng, ref)
}

// StageBias is how far the gradient along each column's own recurrence
// (what FrozenTraces gives) is from the exact gradient, over the blocks of
// one frozen stage:
//
//	RelErr = ‖g̃ − g‖ / ‖g‖        Cosine = g̃·g / (‖g̃‖·‖g‖)
type StageBias struct {
	Stage          int
	RelErr, Cosine float64
}

// FrozenBias measures, for the gradient of L = Σ_t a_t·y_t over the
// trajectory xs of the network top with parameters frozen and learn, the
// bias of the cut gradient against the exact one (reference.NetworkAll with
// and without cut), stage by frozen stage. a nil means L = y_T.
func FrozenBias(r *reference.Reference, top arch.Network, frozen, learn []float64, xs [][]float64, a []float64) ([]StageBias, error) {
	_, cut, _, err := r.NetworkAll(top, frozen, learn, xs, a, true)
	if err != nil {
		return nil, err
	}
	_, exact, _, err := r.NetworkAll(top, frozen, learn, xs, a, false)
	if err != nil {
		return nil, err
	}
	out := make([]StageBias, 0, top.Learning())
	for s := range top.Learning() {
		lo := top.OffFrozen(s, 0)
		hi := lo + top.Stages[s]*arch.ColumnParams(top.ColumnInputs(s))
		out = append(out, stageBias(s, cut[lo:hi], exact[lo:hi]))
	}
	return out, nil
}

func stageBias(s int, got, want []float64) StageBias {
	var d2, g2, w2, dot float64
	for i := range got {
		d := got[i] - want[i]
		d2 += d * d
		g2 += got[i] * got[i]
		w2 += want[i] * want[i]
		dot += got[i] * want[i]
	}
	return StageBias{Stage: s, RelErr: math.Sqrt(d2 / w2), Cosine: dot / math.Sqrt(g2*w2)}
}
