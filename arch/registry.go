package arch

import (
	"fmt"
	"image/color"
	"slices"
	"sync"
)

// Family is the kind of model a method learns; the run settings, the shapes
// (Network, Dense, Linear, RTU) and the run-time gate follow it.
type Family string

// The families of the built-in methods. A registered method of its own kind
// uses FamilyOther: no family's settings, shape or gate apply to it.
const (
	FamilyNetwork Family = "network" // a Network of columns (Columnar, Constructive, CCN)
	FamilyDense   Family = "dense"   // a dense LSTM (T-BPTT, RTRL, SnAp-1, UORO)
	FamilyLinear  Family = "linear"  // the memoryless control
	FamilyRTU     Family = "rtu"     // a layer of Recurrent Trace Units
	FamilyOther   Family = "other"   // a registered learner with its own constructor
)

// GateCoverage says how the run-time gate (compare.Gate, paper-faithful
// gradients checked against the autodiff reference before every run) covers
// a method.
type GateCoverage int

const (
	// GateChecked: the gate compares the method's engine with the reference
	// before every run.
	GateChecked GateCoverage = iota
	// GateExempt: the gate has no reference for the method; runs proceed
	// unchecked, and MethodInfo.Exempt says why.
	GateExempt
)

// Spec is what a registered constructor or operation count receives: the
// resolved run settings that size a learner. Settings that do not apply to
// the method are zero.
type Spec struct {
	Inputs           int           // observation length
	Seed             uint64        // the learner's initialization seed
	Hidden           int           // dense LSTM units, RTU trace units
	Features         int           // a network's columns
	FeaturesPerStage int           // columns a stage adds
	StepsPerStage    int           // steps per stage
	Truncation       int           // T-BPTT window k
	OutBias          bool          // a dense LSTM's output bias b_out
	FanInInit        bool          // U(−1/√H, 1/√H) initialization of a dense LSTM
	Norm             Normalization // online normalization settings
}

// Head says where the prediction head lies in a learner's parameter vector:
// indices [Start, End), reading Features features.
type Head struct {
	Start, End, Features int
}

// MethodInfo is a method's entry in the registry of methods: everything the
// command line, the experiments, the budget tables, the gate and the figures
// need to know about it besides its engine.
type MethodInfo struct {
	Method Method
	Family Family
	// Label is the legend text of the method in figures ("T-BPTT"); sizes
	// are appended per family.
	Label string
	// Color is the method's one colour in every figure.
	Color color.RGBA
	// PaperModel reports whether the paper's compute model (Appendix A.7)
	// counts the method's operations.
	PaperModel bool
	// Gate is how the run-time gate covers the method; Exempt says why when
	// it does not.
	Gate   GateCoverage
	Exempt string
	// New builds the learner (FamilyOther only; the built-in families are
	// built by experiments.Resolved.NewLearner): the engine, with its
	// parameters initialized, and where its head lies.
	New func(s Spec) (Engine, Head)
	// Ops is the exact count of arithmetic operations per step (FamilyOther
	// only; compute.Config.Implementation counts the built-in families), or
	// false when s has none.
	Ops func(s Spec) (int, bool)
}

// builtin are the entries of the built-in methods, in the order the
// documentation lists them. Colours are the Okabe–Ito palette, readable by
// colour-blind readers.
var builtin = []MethodInfo{
	{Method: MethodCCN, Family: FamilyNetwork, Label: "CCN", PaperModel: true,
		Color: color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}}, // blue
	{Method: MethodColumnar, Family: FamilyNetwork, Label: "Columnar", PaperModel: true,
		Color: color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}}, // bluish green
	{Method: MethodConstructive, Family: FamilyNetwork, Label: "Constructive", PaperModel: true,
		Color: color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}}, // reddish purple
	{Method: MethodTBPTT, Family: FamilyDense, Label: "T-BPTT", PaperModel: true,
		Color: color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}}, // vermillion
	{Method: MethodRTRL, Family: FamilyDense, Label: "RTRL",
		Color: color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xFF}}, // dark grey
	{Method: MethodSnAp1, Family: FamilyDense, Label: "SnAp-1",
		Color: color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}}, // orange
	{Method: MethodUORO, Family: FamilyDense, Label: "UORO",
		Color: color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}}, // sky blue
	{Method: MethodLinear, Family: FamilyLinear, Label: "Linear (no memory)",
		Color: color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}}, // black: the memoryless control
	{Method: MethodRTU, Family: FamilyRTU, Label: "RTU", PaperModel: true,
		Color: color.RGBA{R: 0x8C, G: 0x56, B: 0x3C, A: 0xFF}}, // brown
	{Method: MethodRTULinear, Family: FamilyRTU, Label: "linear RTU", PaperModel: true,
		Color: color.RGBA{R: 0xB8, G: 0x86, B: 0x0B, A: 0xFF}}, // dark goldenrod
}

var registry = struct {
	sync.RWMutex
	entries []MethodInfo
}{entries: slices.Clone(builtin)}

// Register adds a method to the registry: from then on it is Known, listed
// by Methods, and the command line, experiments, figures and budget tables
// accept it. A method of FamilyOther needs New and Ops, and is exempt from
// the run-time gate (its reason in Exempt). Register panics if
// the method is already registered or the entry is incomplete. The returned
// function removes the entry again (for tests).
func Register(info MethodInfo) (unregister func()) {
	switch {
	case info.Method == "":
		panic("arch: Register: a method needs a name")
	case info.Label == "":
		panic(fmt.Sprintf("arch: Register %s: no label", info.Method))
	case info.Color.A == 0:
		panic(fmt.Sprintf("arch: Register %s: no colour", info.Method))
	case info.Family != FamilyOther:
		panic(fmt.Sprintf("arch: Register %s: family %q (a registered method is FamilyOther; the built-in families are built by their packages)", info.Method, info.Family))
	case info.New == nil || info.Ops == nil:
		panic(fmt.Sprintf("arch: Register %s: a method of FamilyOther needs New and Ops", info.Method))
	case info.Gate != GateExempt:
		panic(fmt.Sprintf("arch: Register %s: the run-time gate checks the built-in families only: exempt it (GateExempt, with the reason in Exempt)", info.Method))
	case info.Exempt == "":
		panic(fmt.Sprintf("arch: Register %s: exempt from the gate without a reason", info.Method))
	}
	registry.Lock()
	defer registry.Unlock()
	for _, e := range registry.entries {
		if e.Method == info.Method {
			panic(fmt.Sprintf("arch: Register: method %s already registered", info.Method))
		}
	}
	registry.entries = append(registry.entries, info)
	return func() {
		registry.Lock()
		defer registry.Unlock()
		registry.entries = slices.DeleteFunc(registry.entries, func(e MethodInfo) bool { return e.Method == info.Method })
	}
}

// Info returns the registry entry of m, and whether m has one.
func Info(m Method) (MethodInfo, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, e := range registry.entries {
		if e.Method == m {
			return e, true
		}
	}
	return MethodInfo{}, false
}

// Family returns the family of m ("" for an unknown method).
func (m Method) Family() Family {
	info, _ := Info(m)
	return info.Family
}
