package arch

// Gate indices, in the order used by every layout of this module.
const (
	GateI    = 0 // input gate, σ
	GateF    = 1 // forget gate, σ
	GateG    = 2 // cell candidate, tanh
	GateO    = 3 // output gate, σ
	NumGates = 4
)
