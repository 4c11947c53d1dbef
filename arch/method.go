package arch

// Method names a learning method: a topology and the way its gradient is
// computed. Columnar, Constructive and CCN are Networks (paper §3) learned by
// forward-mode RTRL; T-BPTT and RTRL are dense LSTMs (Dense) learned by
// truncated BPTT and by exact RTRL.
type Method string

// The methods, by the names the command line, the experiment files and the
// result files use.
const (
	MethodCCN          Method = "ccn"
	MethodColumnar     Method = "columnar"
	MethodConstructive Method = "constructive"
	MethodTBPTT        Method = "tbptt"
	MethodRTRL         Method = "rtrl" // dense exact RTRL
)

// Methods returns every method, in the order the documentation lists them.
func Methods() []Method {
	return []Method{MethodCCN, MethodColumnar, MethodConstructive, MethodTBPTT, MethodRTRL}
}

// Known reports whether m is one of Methods.
func (m Method) Known() bool {
	for _, k := range Methods() {
		if m == k {
			return true
		}
	}
	return false
}

// Networked reports whether m learns a Network of columns (Columnar,
// Constructive, CCN) rather than a dense LSTM.
func (m Method) Networked() bool {
	return m == MethodCCN || m == MethodColumnar || m == MethodConstructive
}
