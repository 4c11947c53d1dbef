package compute

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
		panic(fmt.Sprintf("compute: truncation %d below 1", truncation))
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
		panic(fmt.Sprintf("compute: features per stage %d below 1", perStage))
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
// what the engine does, n(30x + 77). It panics if a size is negative.
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
		panic(fmt.Sprintf("compute: negative feature count %d", features))
	}
	if inputs < 0 {
		panic(fmt.Sprintf("compute: negative input size %d", inputs))
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
}

// Ops returns the operations per step of c. It panics if c.Method is unknown
// or a field is out of range for its method.
func (c Config) Ops() int {
	switch c.Method {
	case arch.MethodTBPTT:
		return TBPTT(c.Features, c.Inputs, c.Truncation)
	case arch.MethodColumnar:
		return Columnar(c.Features, c.Inputs)
	case arch.MethodConstructive:
		return Constructive(c.Features, c.Inputs)
	case arch.MethodCCN:
		return CCN(c.Features, c.Inputs, c.PerStage)
	case arch.MethodRTU, arch.MethodRTULinear:
		return RTU(c.Features, c.Inputs)
	}
	panic(fmt.Sprintf("compute: unknown method %q", c.Method))
}

// String formats c as the paper labels it: "k:H" for T-BPTT, the feature
// count otherwise (with u for CCN).
func (c Config) String() string {
	switch c.Method {
	case arch.MethodTBPTT:
		return fmt.Sprintf("tbptt %d:%d", c.Truncation, c.Features)
	case arch.MethodCCN:
		return fmt.Sprintf("ccn %d (%d per stage)", c.Features, c.PerStage)
	}
	return fmt.Sprintf("%s %d", c.Method, c.Features)
}
