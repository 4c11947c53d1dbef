package compare

import (
	"fmt"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
)

// Injection names a known mistake to inject into the hand-written engines
// (`ccn verify --inject`, `ccn run --inject`): it shows that the checks have
// teeth, since every case whose engine makes the mistake must fail. The zero
// value injects nothing.
type Injection string

// The injectable mistakes. Each reaches only the engines that can make it
// (forward.Defect and backward.Defect say which); the others run correctly.
const (
	InjectNone                 Injection = ""
	InjectDropRecurrentTerm    Injection = "drop-recurrent-term"    // column, dense RTRL, SnAp-1, RTU, networks: forward.DropRecurrentTerm
	InjectOffByOneWindow       Injection = "off-by-one-window"      // T-BPTT: backward.OffByOneWindow
	InjectDropForgetPath       Injection = "drop-forget-path"       // T-BPTT: backward.DropForgetPath
	InjectPreviousStepFeatures Injection = "previous-step-features" // Constructive, CCN, linear: forward.PreviousStepFeatures
	InjectRestartStats         Injection = "restart-stats-at-stage" // stage changes: forward.RestartStatsAtStage
	InjectRestartState         Injection = "restart-state-at-stage" // stage changes: forward.RestartStateAtStage
	// InjectAsymmetricUORO biases UORO (forward.AsymmetricScaling): only the
	// statistical rows of ccn verify (CheckUORO) can see it, since a run's
	// gate checks UORO's exact parts alone (AppliesTo is false).
	InjectAsymmetricUORO Injection = "asymmetric-uoro-scaling"
	// InjectDropPhaseCoupling drops the rotation terms of the RTU traces
	// (forward.DropPhaseCoupling).
	InjectDropPhaseCoupling Injection = "drop-phase-coupling"
	// InjectDropNormScale omits the normalization's scale from a normalized
	// RTU's trace gradient (forward.DropNormScale); an RTU run without
	// normalization is unchanged by it.
	InjectDropNormScale Injection = "drop-norm-scale"
)

// Injections lists every mistake that can be injected, in order.
func Injections() []Injection {
	return []Injection{InjectDropRecurrentTerm, InjectOffByOneWindow, InjectDropForgetPath,
		InjectPreviousStepFeatures, InjectRestartStats, InjectRestartState, InjectAsymmetricUORO, InjectDropPhaseCoupling,
		InjectDropNormScale}
}

// ParseInjection returns the Injection named s ("" is InjectNone), or an
// error listing the names.
func ParseInjection(s string) (Injection, error) {
	if s == "" {
		return InjectNone, nil
	}
	for _, in := range Injections() {
		if string(in) == s {
			return in, nil
		}
	}
	names := make([]string, 0, len(Injections()))
	for _, in := range Injections() {
		names = append(names, string(in))
	}
	return InjectNone, fmt.Errorf("compare: unknown injection %q (want %s)", s, strings.Join(names, ", "))
}

// Forward is the defect of the forward-mode engines (columns, dense RTRL,
// SnAp-1, UORO, networks) that in injects.
func (in Injection) Forward() forward.Defect {
	switch in {
	case InjectAsymmetricUORO:
		return forward.AsymmetricScaling
	case InjectDropRecurrentTerm:
		return forward.DropRecurrentTerm
	case InjectPreviousStepFeatures:
		return forward.PreviousStepFeatures
	case InjectRestartStats:
		return forward.RestartStatsAtStage
	case InjectRestartState:
		return forward.RestartStateAtStage
	case InjectDropPhaseCoupling:
		return forward.DropPhaseCoupling
	case InjectDropNormScale:
		return forward.DropNormScale
	}
	return forward.NoDefect
}

// Backward is the defect of backward.TBPTT that in injects.
func (in Injection) Backward() backward.Defect {
	switch in {
	case InjectOffByOneWindow:
		return backward.OffByOneWindow
	case InjectDropForgetPath:
		return backward.DropForgetPath
	}
	return backward.NoDefect
}

// AppliesTo reports whether in changes the engine of method m so that the
// gate of a run of m must refuse it. InjectAsymmetricUORO changes UORO's random
// estimate, which the gate does not check: it applies to no run (ccn verify's
// statistical UORO rows refuse it). No injection changes the engine of a
// method added with arch.Register.
func (in Injection) AppliesTo(m arch.Method) bool {
	info, _ := arch.Info(m)
	if f := info.Family; f == "" || f == arch.FamilyOther {
		return false // an unknown or registered method: its engine is its own
	}
	backprop := info.Takes(arch.SizeTruncation) // T-BPTT's window: the backward engine
	switch in {
	case InjectDropRecurrentTerm:
		// The forward-mode engines with a recurrence whose exact gradient
		// the gate checks: not the linear control's (none), not a random
		// estimate's (UORO: the gate checks its exact parts).
		return !backprop && !info.Stochastic && info.Family != arch.FamilyLinear
	case InjectOffByOneWindow, InjectDropForgetPath:
		return backprop
	case InjectPreviousStepFeatures:
		return info.Staged() || info.Family == arch.FamilyLinear
	case InjectRestartStats, InjectRestartState:
		return info.Staged()
	case InjectDropPhaseCoupling, InjectDropNormScale:
		return info.Family == arch.FamilyRTU
	}
	return false
}
