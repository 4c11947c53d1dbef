package compare

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/reference"
)

// GateSpec describes the architecture an experiment is about to train. Exactly
// one of Net (Columnar, Constructive, CCN) or Dense (T-BPTT, dense RTRL) is set.
type GateSpec struct {
	Net        *arch.Network // network topology; checked as it is (choose the stage to check)
	Dense      *arch.Dense   // dense LSTM shape
	Truncation int           // T-BPTT truncation k with Dense; 0 with RTRL means exact RTRL
	RTRL       bool          // with Dense: check forward.DenseRTRL instead of backward.TBPTT
	Seed       uint64
}

// GateLength is the length of the gate's random trajectory: long enough to
// exercise every term of the recurrences and the truncation window, short
// enough for the gate to take well under a second.
const GateLength = 20

// Gate checks the configured architecture itself, with random parameters on a
// short random trajectory, against the reference. It returns an error naming
// the disagreement if the engine does not match within Tolerance.
func Gate(spec GateSpec) error {
	r := reference.New()
	rng := NewRand(spec.Seed, 0)
	var a Agreement
	var err error
	var what string
	switch {
	case spec.Net != nil:
		tr := RandomTrajectory(rng, 0, GateLength, spec.Net.Inputs)
		what = fmt.Sprintf("network %v on %d inputs", spec.Net.Stages, spec.Net.Inputs)
		a, err = CheckNetwork(r, *spec.Net, tr, rng, 0)
	case spec.Dense != nil && spec.RTRL:
		tr := RandomTrajectory(rng, 0, GateLength, spec.Dense.Inputs)
		what = fmt.Sprintf("dense RTRL H=%d m=%d", spec.Dense.Hidden, spec.Dense.Inputs)
		a, err = CheckDenseRTRL(r, *spec.Dense, tr, rng, 0)
	case spec.Dense != nil:
		T := max(GateLength, spec.Truncation+5)
		tr := RandomTrajectory(rng, 0, T, spec.Dense.Inputs)
		what = fmt.Sprintf("T-BPTT H=%d m=%d k=%d", spec.Dense.Hidden, spec.Dense.Inputs, spec.Truncation)
		a, err = CheckTBPTT(r, *spec.Dense, spec.Truncation, tr, rng, 0)
	default:
		panic("compare: GateSpec needs Net or Dense")
	}
	if err != nil {
		return fmt.Errorf("compare: gradient gate for %s: reference failed: %w", what, err)
	}
	if !a.Pass() {
		return fmt.Errorf("compare: gradient gate for %s: engine disagrees with the autodiff reference (max rel error %.3g > %g); refusing to run", what, a.MaxRel, Tolerance)
	}
	return nil
}
