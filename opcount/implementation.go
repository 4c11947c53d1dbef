package opcount

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
)

// Dense reports whether c is a dense LSTM (tbptt, rtrl, snap1, uoro), whose
// Features are its hidden units and which may have an output bias.
func (c Config) Dense() bool {
	return c.Method.Dense()
}

// Spec is c as the counts of the registry of methods read it: Features as
// both Hidden and Features (each method reads the one that sizes it),
// normalization on.
func (c Config) Spec() arch.Spec {
	return arch.Spec{Inputs: c.Inputs, Hidden: c.Features, Features: c.Features,
		FeaturesPerStage: c.PerStage, Truncation: c.Truncation, OutBias: !c.NoOutBias,
		Norm: arch.Normalization{Enabled: true}, FrozenTraces: c.FrozenTraces}
}

// Implementation returns this module's exact count of arithmetic operations
// per step (forward pass plus gradient) for c, as the engines report it
// (backward.Ops, the engines' OpsPerStep): T-BPTT with a full window,
// networks in their last stage (the most expensive one; frozen columns with
// their own traces if c.FrozenTraces) and RTU layers,
// normalization on, dense LSTMs with the output bias b_out unless c.NoOutBias, the linear
// control with its inputs normalized (Features unused). It is the Ops of c's
// method in the registry of methods (arch.Info): the built-in methods' are
// attached below, a method added with arch.Register brings its own. It
// returns false when c has no count (a size or k out of range, an unknown
// method).
func (c Config) Implementation() (int, bool) {
	return Implementation(c.Method, c.Spec())
}

// Implementation returns the exact count of operations per step of method m
// sized by s: the Ops of m's entry in the registry of methods. Ask here
// rather than arch.Info(m).Ops: importing this package attaches the
// built-in methods' counts. It returns false for an unknown method or a size
// out of range.
func Implementation(m arch.Method, s arch.Spec) (int, bool) {
	info, ok := arch.Info(m)
	if !ok || s.Inputs < 1 {
		return 0, false
	}
	if info.Ops == nil {
		panic(fmt.Sprintf("opcount: method %s has no operation count in the registry of methods", m))
	}
	return info.Ops(s)
}

// The built-in methods' counts: the implementation's (Ops, from the engines)
// and the paper's compute model (PaperOps, the formulas of ops.go), attached
// to their entries in the registry of methods.
func init() {
	dense := func(count func(arch.Dense, arch.Spec) (int, bool)) arch.Count {
		return func(s arch.Spec) (int, bool) {
			if s.Hidden < 1 {
				return 0, false
			}
			return count(arch.Dense{Hidden: s.Hidden, Inputs: s.Inputs, OutBias: s.OutBias}, s)
		}
	}
	arch.CountBuiltin(arch.MethodTBPTT, dense(func(d arch.Dense, s arch.Spec) (int, bool) {
		if s.Truncation < 1 {
			return 0, false
		}
		return backward.Ops(d, s.Truncation), true
	}), paperTBPTT)
	arch.CountBuiltin(arch.MethodRTRL, dense(func(d arch.Dense, _ arch.Spec) (int, bool) { return forward.NewDenseRTRL(d).OpsPerStep(), true }), nil)
	arch.CountBuiltin(arch.MethodSnAp1, dense(func(d arch.Dense, _ arch.Spec) (int, bool) { return forward.NewSnAp1(d).OpsPerStep(), true }), nil)
	arch.CountBuiltin(arch.MethodUORO, dense(func(d arch.Dense, _ arch.Spec) (int, bool) { return forward.NewUORO(d, 0).OpsPerStep(), true }), nil)
	arch.CountBuiltin(arch.MethodColumnar, networkOps(arch.MethodColumnar), paperColumnar)
	arch.CountBuiltin(arch.MethodConstructive, networkOps(arch.MethodConstructive), paperCCN(arch.MethodConstructive))
	arch.CountBuiltin(arch.MethodCCN, networkOps(arch.MethodCCN), paperCCN(arch.MethodCCN))
	for _, m := range []arch.Method{arch.MethodRTU, arch.MethodRTULinear} {
		arch.CountBuiltin(m, rtuOps, paperRTU)
	}
	arch.CountBuiltin(arch.MethodLinear, func(s arch.Spec) (int, bool) {
		// Sizes do not apply: the control reads the inputs alone.
		return forward.NewLinear(arch.Linear{Inputs: s.Inputs, Norm: s.Norm}).OpsPerStep(), true
	}, nil)
}

// networkOps counts a network of method m in its last stage, its stages of
// the entry's PerStage features, its frozen columns with their own traces
// if s.FrozenTraces.
func networkOps(m arch.Method) arch.Count {
	return func(s arch.Spec) (int, bool) {
		info, _ := arch.Info(m)
		u := info.PerStage(s)
		if s.Features < 1 || u < 1 {
			return 0, false
		}
		var stages []int
		for left := s.Features; left > 0; left -= u {
			stages = append(stages, min(u, left))
		}
		top := arch.Network{Inputs: s.Inputs, Stages: stages, Norm: s.Norm}
		return forward.NewNetworkAt(top, forward.NetworkConfig{Inputs: s.Inputs, FrozenTraces: s.FrozenTraces}).OpsPerStep(), true
	}
}

func rtuOps(s arch.Spec) (int, bool) {
	if s.Hidden < 1 {
		return 0, false
	}
	return forward.RTUOpsPerStep(arch.RTU{Units: s.Hidden, Inputs: s.Inputs, Norm: s.Norm}), true
}
