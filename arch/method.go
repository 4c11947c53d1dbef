package arch

// Method names a learning method: a topology and the way its gradient is
// computed. Columnar, Constructive and CCN are Networks (paper §3) learned by
// forward-mode RTRL; T-BPTT, RTRL, SnAp-1 and UORO are dense LSTMs (Dense)
// learned by truncated BPTT, exact RTRL and the two approximations of RTRL
// (docs/equations.md). Linear is the memoryless control: TD(λ) on the
// current observation alone (Linear). rtu and rtu-linear are layers of
// Recurrent Trace Units (RTU) learned by exact RTRL.
type Method string

// The methods, by the names the command line, the experiment files and the
// result files use.
const (
	MethodCCN          Method = "ccn"
	MethodColumnar     Method = "columnar"
	MethodConstructive Method = "constructive"
	MethodTBPTT        Method = "tbptt"
	MethodRTRL         Method = "rtrl"   // dense exact RTRL
	MethodSnAp1        Method = "snap1"  // dense SnAp-1 (beyond the paper)
	MethodUORO         Method = "uoro"   // dense UORO (beyond the paper)
	MethodLinear       Method = "linear" // the memoryless control (beyond the paper)
	// Recurrent Trace Units (beyond the paper), learned by exact RTRL:
	// the non-linear and the linear RTU (RTU).
	MethodRTU       Method = "rtu"
	MethodRTULinear Method = "rtu-linear"
)

// Methods returns every registered method: the built-in ones in the order
// the documentation lists them, then those added by Register.
func Methods() []Method {
	registry.RLock()
	defer registry.RUnlock()
	ms := make([]Method, len(registry.entries))
	for i, e := range registry.entries {
		ms[i] = e.Method
	}
	return ms
}

// Known reports whether m is one of Methods.
func (m Method) Known() bool {
	_, ok := Info(m)
	return ok
}

// IsRTU reports whether m learns a layer of Recurrent Trace Units (RTU).
func (m Method) IsRTU() bool { return m.Family() == FamilyRTU }

// Networked reports whether m learns a Network of columns (Columnar,
// Constructive, CCN) rather than a dense LSTM.
func (m Method) Networked() bool { return m.Family() == FamilyNetwork }

// Dense reports whether m learns a dense LSTM (T-BPTT, RTRL, SnAp-1, UORO).
func (m Method) Dense() bool { return m.Family() == FamilyDense }

// Normalized reports whether m has the online normalization settings: the
// networks and the RTU layers normalize their features, Linear its inputs.
func (m Method) Normalized() bool {
	return m.Networked() || m.Family() == FamilyLinear || m.IsRTU()
}
