package compare

import (
	"fmt"
	"math/rand/v2"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

// gateAutoMin and gateAutoWindow are the shortest stage and the window of
// the gate's AutoFreeze test (GateNet.AutoFreeze): the run's own, millions
// of steps, would not freeze a stage within the gate's inputs.
const (
	gateAutoMin    = 8
	gateAutoWindow = 4
)

// gateAuto is the gate's check of a run whose stages freeze when learned
// (GateNet.AutoFreeze): CheckAutoStaged on tr with the gate's test
// (gateAutoMin, gateAutoWindow, τ = 0, β = 0.5, the longest stage len(Xs)
// over the number of stages), so that the stage changes fall at steps the
// test picks. It returns the name and agreement of the check.
func gateAuto(r *reference.Reference, net GateNet, norm arch.Normalization, normName string, tr Trajectory, rng *rand.Rand, in Injection) (string, Agreement, error) {
	m := len(tr.Xs[0])
	stages := (net.MaxFeatures + net.FeaturesPerStage - 1) / net.FeaturesPerStage
	spec := AutoStagedSpec{Inputs: m, FeaturesPerStage: net.FeaturesPerStage, MaxFeatures: net.MaxFeatures, Norm: norm,
		Freeze: forward.AutoFreeze{Min: gateAutoMin, Max: max(gateAutoMin, len(tr.Xs)/stages), Window: gateAutoWindow, Decay: 0.5},
		Rate:   0.5}
	res, err := CheckAutoStaged(r, spec, tr, rng, in.Forward())
	name := fmt.Sprintf("stage changes when learned, at steps %v (%s, scale %g)", res.Ends, normName, tr.Scale)
	return name, res.Worst(), err
}
