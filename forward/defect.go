package forward

import "fmt"

// Defect selects a deliberate mistake in an engine. It exists for tests of the
// comparison against autodiff only: an engine with a Defect other than NoDefect
// computes wrong gradients (or, for PreviousStepFeatures, a forward pass that
// disagrees with its gradient) on purpose.
type Defect int

const (
	// NoDefect is the correct engine.
	NoDefect Defect = iota
	// PreviousStepFeatures reproduces the authors' mismatch in a Network: the
	// learning stage's columns read, in the forward pass, the previous step's
	// normalized features of earlier stages, while their traces use the current
	// step's features as direct terms. Column and DenseRTRL ignore it.
	PreviousStepFeatures
	// DropRecurrentTerm drops the recurrent part of ∂a_q/∂p from the trace
	// recursion, as if
	//
	//	∂a_q/∂p = d_q(p)     instead of     d_q(p) + u_q·H_p(t-1)
	//
	// (for a dense LSTM the dropped term is Σ_k W_hh[q·H+j][k]·∂h_k(t-1)/∂p).
	DropRecurrentTerm
	// RestartStatsAtStage makes Network.AdvanceStage restart the
	// normalization statistics of every feature at μ = 0, σ² = 1 instead of
	// carrying those of the existing features over the stage change.
	RestartStatsAtStage
	// RestartStateAtStage makes Network.AdvanceStage zero the state h, c of
	// the existing columns instead of carrying it over the stage change.
	RestartStateAtStage
	// AsymmetricScaling makes UORO add νᵀ·∂F/∂θ to θ̃ without dividing it
	// by ρ1 while s̃ still gains ρ1·ν: the estimate is then biased.
	AsymmetricScaling
	// UnsignedNewTerm makes UORO form νᵀ·∂F/∂θ with ν = (1, …, 1) instead of
	// the step's random signs, as if the new term's sign were ignored: the
	// estimate is then biased.
	UnsignedNewTerm
	// DropPhaseCoupling makes RTU drop the rotation terms −φ·S² and φ·S¹
	// from its trace recursion, as if λ were real in the traces while the
	// forward pass keeps its phase.
	DropPhaseCoupling
	// DropNormScale makes a normalized RTU omit the normalization's scale
	// 1/max(ε, σ) from the gradient of its recurrent parameters, as if the
	// head read h instead of ĥ there (the forward pass and the head's own
	// gradient ĥ stay right). With the normalization off it changes nothing.
	DropNormScale
	// Float32StaleInput makes the float32 engine of a network
	// (NetworkOf[float32]) refresh its float32 copy of the normalized input
	// only every other step, so that at odd steps its pre-activations and
	// traces read the previous step's input, as if the copy were taken
	// before the input changed. The float64 engine ignores it.
	Float32StaleInput
	// DropFrozenRecurrentTerm is DropRecurrentTerm in the traces of the
	// frozen columns only (NetworkConfig.FrozenTraces): the learning
	// columns' gradient stays right, the frozen columns' is wrong.
	DropFrozenRecurrentTerm
	// DropFrozenTracesAtStage makes Network.AdvanceStage (with FrozenTraces)
	// start the newly frozen columns' traces at zero instead of carrying
	// over the traces they had while learning.
	DropFrozenTracesAtStage
)

// String returns the name of the defect.
func (d Defect) String() string {
	switch d {
	case NoDefect:
		return "NoDefect"
	case PreviousStepFeatures:
		return "PreviousStepFeatures"
	case DropRecurrentTerm:
		return "DropRecurrentTerm"
	case RestartStatsAtStage:
		return "RestartStatsAtStage"
	case RestartStateAtStage:
		return "RestartStateAtStage"
	case AsymmetricScaling:
		return "AsymmetricScaling"
	case UnsignedNewTerm:
		return "UnsignedNewTerm"
	case DropPhaseCoupling:
		return "DropPhaseCoupling"
	case Float32StaleInput:
		return "Float32StaleInput"
	case DropNormScale:
		return "DropNormScale"
	case DropFrozenRecurrentTerm:
		return "DropFrozenRecurrentTerm"
	case DropFrozenTracesAtStage:
		return "DropFrozenTracesAtStage"
	}
	return fmt.Sprintf("Defect(%d)", int(d))
}

var _ fmt.Stringer = NoDefect
