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
	FrozenTraces     bool          // a network's frozen columns keep their own RTRL traces (frozen-step-scale > 0)
}

// Head says where the prediction head lies in a learner's parameter vector:
// indices [Start, End), reading Features features.
type Head struct {
	Start, End, Features int
}

// Size is a setting that sizes a method, named by its key in run settings and
// flags (Flag).
type Size string

// The sizes of the built-in methods.
const (
	SizeHidden     Size = "hidden"             // Spec.Hidden: a dense LSTM's units H
	SizeTraceUnits Size = "trace-units"        // Spec.Hidden: an RTU layer's trace units n (two features each)
	SizeTruncation Size = "truncation"         // Spec.Truncation: T-BPTT's window k
	SizeFeatures   Size = "features"           // Spec.Features: a network's columns
	SizePerStage   Size = "features-per-stage" // Spec.FeaturesPerStage: columns a stage adds, u
)

// Flag is the run setting and flag that gives z: "hidden" for both hidden
// units and trace units.
func (z Size) Flag() string {
	if z == SizeTraceUnits {
		return string(SizeHidden)
	}
	return string(z)
}

// Of returns z's value in s.
func (z Size) Of(s Spec) int {
	switch z {
	case SizeHidden, SizeTraceUnits:
		return s.Hidden
	case SizeTruncation:
		return s.Truncation
	case SizeFeatures:
		return s.Features
	case SizePerStage:
		return s.FeaturesPerStage
	}
	panic(fmt.Sprintf("arch: unknown size %q", string(z)))
}

// Count is an operation count per step (+, −, ×, ÷ one each) of a method
// sized by s, or false when s has none (a size out of range).
type Count func(s Spec) (int, bool)

// MethodInfo is a method's entry in the registry of methods: everything the
// command line, the experiments, the budget tables, the gate and the figures
// need to know about it besides its engine.
type MethodInfo struct {
	Method Method
	Family Family
	// Label is the method's name in figures and tables ("T-BPTT").
	Label string
	// Legend is the legend text of the method sized by s ("T-BPTT k=15,
	// H=4"); nil: Label.
	Legend func(s Spec) string
	// Short is the legend text on a crowded axis ("T-BPTT 15:4"); nil:
	// Legend.
	Short func(s Spec) string
	// Color is the method's one colour in every figure.
	Color color.RGBA
	// Sizes are the settings that size the method, in the order tables
	// print them: the flags ccn budget takes for it and the fields of Spec
	// its counts read (besides Inputs).
	Sizes []Size
	// PerStage is the number of features a network learns per stage
	// (Columnar: all of them; Constructive: 1; CCN: FeaturesPerStage); nil
	// for a method that is not a network of stages.
	PerStage func(s Spec) int
	// Stochastic reports whether the method's gradient is a random estimate
	// (UORO): figures draw its spread over draws.
	Stochastic bool
	// PaperModel reports whether the paper's compute model (Appendix A.7)
	// counts the method's operations; then PaperOps is that count.
	PaperModel bool
	PaperOps   Count
	// Ops is the implementation's exact count of operations per step (the
	// forward pass and the gradient, a network in its last stage,
	// normalization on), as the engine's OpsPerStep reports it. A
	// registered method gives its own; the built-in methods' are attached
	// by package opcount (CountBuiltin), which imports their engines.
	Ops Count
	// Gate is how the run-time gate covers the method; Exempt says why when
	// it does not.
	Gate   GateCoverage
	Exempt string
	// New builds the learner (FamilyOther only; the built-in families are
	// built by experiments.Resolved.NewLearner): the engine, with its
	// parameters initialized, and where its head lies.
	New func(s Spec) (Engine, Head)
}

// LegendOf is the legend text of the method sized by s.
func (i MethodInfo) LegendOf(s Spec) string {
	if i.Legend == nil {
		return i.Label
	}
	return i.Legend(s)
}

// ShortOf is the legend text of the method sized by s on a crowded axis.
func (i MethodInfo) ShortOf(s Spec) string {
	if i.Short == nil {
		return i.LegendOf(s)
	}
	return i.Short(s)
}

// Takes reports whether z sizes the method.
func (i MethodInfo) Takes(z Size) bool { return slices.Contains(i.Sizes, z) }

// Staged reports whether the method is a network that adds its features over
// more than one stage (Constructive, CCN; not Columnar, whose one stage is
// all of them): the stage schedule applies to it.
func (i MethodInfo) Staged() bool {
	return i.PerStage != nil && i.PerStage(Spec{Features: 2, FeaturesPerStage: 1}) < 2
}

// Legend texts of the built-in methods.
var (
	legendTBPTT = func(s Spec) string { return fmt.Sprintf("T-BPTT k=%d, H=%d", s.Truncation, s.Hidden) }
	shortTBPTT  = func(s Spec) string { return fmt.Sprintf("T-BPTT %d:%d", s.Truncation, s.Hidden) }
)

func legendHidden(label string) func(Spec) string {
	return func(s Spec) string { return fmt.Sprintf("%s H=%d", label, s.Hidden) }
}

func legendUnits(label string) func(Spec) string {
	return func(s Spec) string { return fmt.Sprintf("%s n=%d", label, s.Hidden) }
}

func labelOnly(label string) func(Spec) string { return func(Spec) string { return label } }

// Features per stage of the built-in networks.
var (
	oneStage  = func(s Spec) int { return s.Features }
	oneColumn = func(Spec) int { return 1 }
	uPerStage = func(s Spec) int { return s.FeaturesPerStage }
)

// builtin are the entries of the built-in methods, in the order the
// documentation lists them. Colours are the Okabe–Ito palette, readable by
// colour-blind readers. Their counts (Ops, PaperOps) are attached by
// package opcount.
var builtin = []MethodInfo{
	{Method: MethodCCN, Family: FamilyNetwork, Label: "CCN", PaperModel: true,
		Sizes: []Size{SizeFeatures, SizePerStage}, PerStage: uPerStage,
		Color: color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}}, // blue
	{Method: MethodColumnar, Family: FamilyNetwork, Label: "Columnar", PaperModel: true,
		Sizes: []Size{SizeFeatures}, PerStage: oneStage,
		Color: color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}}, // bluish green
	{Method: MethodConstructive, Family: FamilyNetwork, Label: "Constructive", PaperModel: true,
		Sizes: []Size{SizeFeatures}, PerStage: oneColumn,
		Color: color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}}, // reddish purple
	{Method: MethodTBPTT, Family: FamilyDense, Label: "T-BPTT", PaperModel: true,
		Sizes: []Size{SizeHidden, SizeTruncation}, Legend: legendTBPTT, Short: shortTBPTT,
		Color: color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}}, // vermillion
	{Method: MethodRTRL, Family: FamilyDense, Label: "RTRL",
		Sizes: []Size{SizeHidden}, Legend: legendHidden("RTRL"),
		Color: color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xFF}}, // dark grey
	{Method: MethodSnAp1, Family: FamilyDense, Label: "SnAp-1",
		Sizes: []Size{SizeHidden}, Legend: legendHidden("SnAp-1"), Short: labelOnly("SnAp-1"),
		Color: color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}}, // orange
	{Method: MethodUORO, Family: FamilyDense, Label: "UORO", Stochastic: true,
		Sizes: []Size{SizeHidden}, Legend: legendHidden("UORO"), Short: labelOnly("UORO"),
		Color: color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}}, // sky blue
	{Method: MethodLinear, Family: FamilyLinear, Label: "Linear (no memory)",
		Color: color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}}, // black: the memoryless control
	{Method: MethodRTU, Family: FamilyRTU, Label: "RTU", PaperModel: true,
		Sizes: []Size{SizeTraceUnits}, Legend: legendUnits("RTU"),
		Color: color.RGBA{R: 0x8C, G: 0x56, B: 0x3C, A: 0xFF}}, // brown
	{Method: MethodRTULinear, Family: FamilyRTU, Label: "linear RTU", PaperModel: true,
		Sizes: []Size{SizeTraceUnits}, Legend: legendUnits("linear RTU"),
		Color: color.RGBA{R: 0xB8, G: 0x86, B: 0x0B, A: 0xFF}}, // dark goldenrod
}

var registry = struct {
	sync.RWMutex
	entries []MethodInfo
}{entries: slices.Clone(builtin)}

// Register adds a method to the registry: from then on it is Known, listed
// by Methods, and the command line, experiments, figures and budget tables
// accept it. A method of FamilyOther needs New and Ops, has no stages
// (PerStage), gives PaperOps exactly when PaperModel, and is exempt from the
// run-time gate (its reason in Exempt). Register panics if the method is
// already registered or the entry is incomplete. The returned function
// removes the entry again (for tests).
func Register(info MethodInfo) (unregister func()) {
	switch {
	case info.Method == "":
		panic("arch: Register: a method needs a name")
	case info.Label == "":
		panic(fmt.Sprintf("arch: Register %s: no label", info.Method))
	case info.Color.A == 0:
		panic(fmt.Sprintf("arch: Register %s: no colour", info.Method))
	case info.PaperModel != (info.PaperOps != nil):
		panic(fmt.Sprintf("arch: Register %s: PaperModel and PaperOps disagree", info.Method))
	case info.PerStage != nil:
		panic(fmt.Sprintf("arch: Register %s: PerStage is the built-in networks' (FamilyOther has no stages)", info.Method))
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

// CountBuiltin attaches the operation counts of a built-in method's engine
// to its entry: ops, the implementation's exact count, and paper, the paper's
// compute model (nil when the entry's PaperModel is false). Package opcount
// calls it once per built-in method when it is initialized: the engines that
// count themselves (forward, backward) import arch, not the other way round.
// It panics if m is not built in, already counted, or paper disagrees with
// PaperModel.
func CountBuiltin(m Method, ops, paper Count) {
	registry.Lock()
	defer registry.Unlock()
	i := slices.IndexFunc(registry.entries, func(e MethodInfo) bool { return e.Method == m })
	switch {
	case i < 0 || registry.entries[i].Family == FamilyOther:
		panic(fmt.Sprintf("arch: CountBuiltin: %s is not a built-in method", m))
	case registry.entries[i].Ops != nil:
		panic(fmt.Sprintf("arch: CountBuiltin: %s already counted", m))
	case ops == nil:
		panic(fmt.Sprintf("arch: CountBuiltin %s: no count", m))
	case registry.entries[i].PaperModel != (paper != nil):
		panic(fmt.Sprintf("arch: CountBuiltin %s: the paper's count disagrees with PaperModel", m))
	}
	registry.entries[i].Ops, registry.entries[i].PaperOps = ops, paper
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
