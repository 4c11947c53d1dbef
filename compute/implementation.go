package compute

import (
	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
)

// Dense reports whether c is a dense LSTM (tbptt, rtrl, snap1, uoro), whose
// Features are its hidden units and which may have an output bias.
func (c Config) Dense() bool {
	return c.Method.Dense()
}

// Implementation returns this module's exact count of arithmetic operations
// per step (forward pass plus gradient) for c, as the engines report it
// (backward.Ops, the engines' OpsPerStep): T-BPTT with a full window,
// networks in their last stage (the most expensive one), normalization on,
// dense LSTMs with the output bias b_out unless c.NoOutBias, the linear
// control with its inputs normalized (Features unused). It returns false
// when c has no count (a size or k out of range, an unknown method). A method
// added with arch.Register is counted by its entry's Ops, with Features as
// both Hidden and Features.
func (c Config) Implementation() (int, bool) {
	if info, ok := arch.Info(c.Method); ok && info.Family == arch.FamilyOther {
		if c.Inputs < 1 {
			return 0, false
		}
		return info.Ops(arch.Spec{Inputs: c.Inputs, Hidden: c.Features, Features: c.Features,
			FeaturesPerStage: c.PerStage, Truncation: c.Truncation, OutBias: !c.NoOutBias,
			Norm: arch.Normalization{Enabled: true}})
	}
	if c.Method == arch.MethodLinear && c.Inputs >= 1 {
		// Features do not apply: the control reads the inputs alone.
		return forward.NewLinear(arch.Linear{Inputs: c.Inputs, Norm: arch.Normalization{Enabled: true}}).OpsPerStep(), true
	}
	if c.Features < 1 || c.Inputs < 1 {
		return 0, false
	}
	dense := arch.Dense{Hidden: c.Features, Inputs: c.Inputs, OutBias: !c.NoOutBias}
	switch c.Method {
	case arch.MethodTBPTT:
		if c.Truncation < 1 {
			return 0, false
		}
		return backward.Ops(dense, c.Truncation), true
	case arch.MethodRTRL:
		return forward.NewDenseRTRL(dense).OpsPerStep(), true
	case arch.MethodSnAp1:
		return forward.NewSnAp1(dense).OpsPerStep(), true
	case arch.MethodUORO:
		return forward.NewUORO(dense, 0).OpsPerStep(), true
	case arch.MethodRTU, arch.MethodRTULinear:
		return forward.RTUOpsPerStep(arch.RTU{Units: c.Features, Inputs: c.Inputs}), true
	case arch.MethodColumnar, arch.MethodConstructive, arch.MethodCCN:
		u := c.Features
		switch c.Method {
		case arch.MethodConstructive:
			u = 1
		case arch.MethodCCN:
			u = c.PerStage
		}
		if u < 1 {
			return 0, false
		}
		var stages []int
		for left := c.Features; left > 0; left -= u {
			stages = append(stages, min(u, left))
		}
		top := arch.Network{Inputs: c.Inputs, Stages: stages, Norm: arch.Normalization{Enabled: true}}
		return forward.NewNetworkAt(top, forward.NetworkConfig{Inputs: c.Inputs}).OpsPerStep(), true
	}
	return 0, false
}
