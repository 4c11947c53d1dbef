package opcount

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
)

// TBPTT returns the operations per step of a dense LSTM with the given hidden
// size and inputs, trained by T-BPTT with truncation k:
//
//	(k+1)·(4h² + 4hx + 4h)
//
// It panics if a size is negative or truncation < 1.
func TBPTT(hidden, inputs, truncation int) int {
	checkSizes(hidden, inputs)
	if truncation < 1 {
		panic(fmt.Sprintf("opcount: truncation %d below 1", truncation))
	}
	h, x := hidden, inputs
	return (truncation + 1) * (4*h*h + 4*h*x + 4*h)
}

// Columnar returns the operations per step of a Columnar network of
// independent columns learned by forward-mode gradients:
//
//	h(4x + 8) + 6h(4x + 8)
//
// It panics if a size is negative.
func Columnar(features, inputs int) int {
	checkSizes(features, inputs)
	forward := features * (4*inputs + 8)
	return forward + 6*forward
}

// CCN returns the operations per step of a Columnar-Constructive network with
// the given total features, learning perStage of them at a time (each
// feature reads on average h/2 earlier features):
//
//	h(2h + 4x + 4) + 6u(2h + 4x + 4)
//
// It panics if a size is negative or perStage < 1.
func CCN(features, inputs, perStage int) int {
	checkSizes(features, inputs)
	if perStage < 1 {
		panic(fmt.Sprintf("opcount: features per stage %d below 1", perStage))
	}
	cell := 2*features + 4*inputs + 4
	return features*cell + 6*perStage*cell
}

// RTU returns the operations per step of a layer of n Recurrent Trace Units
// learned by exact RTRL (beyond the paper), counted in the paper's style:
//
//	n(2x + 2) + 6n(2x + 2)
//
// one operation per recurrent parameter for the forward pass (W_1, W_2, ν, θ
// of each unit, as Columnar counts one per column parameter) and 6 per
// parameter for its trace pair, the complex multiply-add λ·S + d of (T1) in
// forward.RTU (4 multiplications, 2 additions). forward.RTU.OpsPerStep counts
// what the engine does, n(30x + 77), n(30x + 103) with normalization. It panics if a size is negative.
func RTU(units, inputs int) int {
	checkSizes(units, inputs)
	forward := units * (2*inputs + 2)
	return forward + 6*forward
}

// Constructive returns the operations per step of a Constructive network,
// CCN with one feature per stage.
func Constructive(features, inputs int) int { return CCN(features, inputs, 1) }

func checkSizes(features, inputs int) {
	if features < 0 {
		panic(fmt.Sprintf("opcount: negative feature count %d", features))
	}
	if inputs < 0 {
		panic(fmt.Sprintf("opcount: negative input size %d", inputs))
	}
}

// Config is one network configuration of the compute model.
type Config struct {
	Method   arch.Method
	Features int // hidden size |h|: LSTM units for T-BPTT, trace units for RTU (2 features each), columns otherwise
	Inputs   int // input size |x|

	// Truncation is T-BPTT's k; unused by the other methods.
	Truncation int
	// PerStage is CCN's features per stage u; unused by the other methods
	// (Constructive is u = 1).
	PerStage int
	// NoOutBias leaves out the output bias b_out of the dense methods (tbptt,
	// rtrl, snap1, uoro), as ccn run --no-out-bias does; false, the zero
	// value, counts it, as ccn run does by default. The paper's formulas have
	// no output layer, so only Implementation depends on it.
	NoOutBias bool
	// FrozenTraces counts the RTRL traces and gradient that a network's
	// frozen columns keep when they go on learning (ccn run
	// --frozen-step-scale > 0); the paper's frozen stages keep none, so only
	// Implementation depends on it.
	FrozenTraces bool
}

// Ops returns the operations per step of c in the paper's compute model: the
// PaperOps of c's method in the registry of methods (arch.Info). It panics if
// the model has no count for c.Method or a field is out of range for it.
func (c Config) Ops() int {
	info, _ := arch.Info(c.Method)
	if info.PaperOps == nil {
		panic(fmt.Sprintf("opcount: the paper's compute model has no count for method %q", c.Method))
	}
	n, ok := info.PaperOps(c.Spec())
	if !ok {
		panic(fmt.Sprintf("opcount: %s is out of range of the paper's compute model", c))
	}
	return n
}

// The paper's counts of the built-in methods, attached to their entries in
// the registry of methods (implementation.go). Each is false where its
// formula panics.
var (
	paperTBPTT = func(s arch.Spec) (int, bool) {
		if s.Hidden < 0 || s.Inputs < 0 || s.Truncation < 1 {
			return 0, false
		}
		return TBPTT(s.Hidden, s.Inputs, s.Truncation), true
	}
	paperColumnar = func(s arch.Spec) (int, bool) {
		if s.Features < 0 || s.Inputs < 0 {
			return 0, false
		}
		return Columnar(s.Features, s.Inputs), true
	}
	paperRTU = func(s arch.Spec) (int, bool) {
		if s.Hidden < 0 || s.Inputs < 0 {
			return 0, false
		}
		return RTU(s.Hidden, s.Inputs), true
	}
)

// paperCCN is the paper's count of a network of method m learning the
// entry's PerStage features at a time.
func paperCCN(m arch.Method) arch.Count {
	return func(s arch.Spec) (int, bool) {
		info, _ := arch.Info(m)
		u := info.PerStage(s)
		if s.Features < 0 || s.Inputs < 0 || u < 1 {
			return 0, false
		}
		return CCN(s.Features, s.Inputs, u), true
	}
}

// String formats c as its method and sizes (arch.MethodInfo.Sizes), by the
// names: "tbptt hidden=4 truncation=15", "rtu trace-units=21".
func (c Config) String() string {
	info, _ := arch.Info(c.Method)
	s := string(c.Method)
	for _, z := range info.Sizes {
		s += fmt.Sprintf(" %s=%d", z, z.Of(c.Spec()))
	}
	return s
}
