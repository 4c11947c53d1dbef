package backward

import "fmt"

// Defect is a deliberate mistake the engine can be told to make. It exists
// for the teeth tests of the comparison only (package compare shows that the
// exact check against the autodiff reference fails on each of them); leave it
// at NoDefect for everything else.
type Defect int

const (
	// NoDefect computes the correct truncated gradient.
	NoDefect Defect = iota
	// OffByOneWindow pairs the oldest step of a full window with the wrong
	// previous state: the state after the newest step (h_t, c_t) instead of
	// the state at t−k entering the window. That is what a ring of k stored
	// states indexed one slot too far back yields, the off-by-one
	// docs/equations.md describes in the authors' C++ code. It changes the W_hh gradient and the
	// forget-gate term c_prev of the oldest step once t ≥ k.
	OffByOneWindow
	// DropForgetPath drops the f·∂c term carrying the cell gradient from
	// step s to step s−1, keeping only the path through h.
	DropForgetPath
)

// String returns the name of the defect.
func (d Defect) String() string {
	switch d {
	case NoDefect:
		return "NoDefect"
	case OffByOneWindow:
		return "OffByOneWindow"
	case DropForgetPath:
		return "DropForgetPath"
	}
	return fmt.Sprintf("Defect(%d)", int(d))
}

var _ fmt.Stringer = NoDefect
