package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"image/color"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// methodConstants returns the values of the Method constants declared in
// method.go.
func methodConstants(t *testing.T) []Method {
	f, err := parser.ParseFile(token.NewFileSet(), "method.go", nil, 0)
	require.NoError(t, err)
	var ms []Method
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Method" {
				continue
			}
			for _, e := range v.Values {
				lit, ok := e.(*ast.BasicLit)
				require.True(t, ok, "a Method constant is a string literal")
				name, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				ms = append(ms, Method(name))
			}
		}
	}
	return ms
}

// Every Method constant has a complete entry in the registry, and the
// registry has no other built-in entry.
func TestEveryMethodHasAnEntry(t *testing.T) {
	consts := methodConstants(t)
	require.GreaterOrEqual(t, len(consts), 10, "the parse finds the constants")
	assert.ElementsMatch(t, consts, Methods(), "the registry lists exactly the Method constants")
	families := map[Family]bool{FamilyNetwork: true, FamilyDense: true, FamilyLinear: true, FamilyRTU: true}
	colors := map[color.RGBA]Method{}
	labels := map[string]Method{}
	for _, m := range consts {
		info, ok := Info(m)
		if !assert.True(t, ok, "method %s has no entry in the registry (arch/registry.go)", m) {
			continue
		}
		assert.True(t, families[info.Family], "%s: family %q", m, info.Family)
		assert.NotEmpty(t, info.Label, "%s: label", m)
		assert.Equal(t, uint8(0xFF), info.Color.A, "%s: an opaque colour", m)
		assert.Equal(t, GateChecked, info.Gate, "%s: every built-in method is gated", m)
		assert.Nil(t, info.New, "%s: built by its package", m)
		assert.Equal(t, info.Family == FamilyNetwork, info.PerStage != nil, "%s: a network, and only a network, has stages", m)
		s := Spec{Inputs: 12, Hidden: 3, Features: 8, FeaturesPerStage: 2, Truncation: 5}
		if info.PerStage != nil {
			assert.Positive(t, info.PerStage(s), "%s: features per stage", m)
		}
		assert.True(t, strings.HasPrefix(info.LegendOf(s), info.Label), "%s: legend %q starts with its label", m, info.LegendOf(s))
		assert.True(t, strings.HasPrefix(info.ShortOf(s), info.Label), "%s: short legend %q starts with its label", m, info.ShortOf(s))
		for _, z := range info.Sizes {
			assert.Positive(t, z.Of(s), "%s: size %s", m, z) // panics for an unknown size
		}
		if o, dup := colors[info.Color]; dup {
			t.Errorf("%s shares its colour with %s", m, o)
		}
		if o, dup := labels[info.Label]; dup {
			t.Errorf("%s shares its label with %s", m, o)
		}
		colors[info.Color], labels[info.Label] = m, m
	}
}

func TestFamilyPredicates(t *testing.T) {
	tests := []struct {
		m                                 Method
		networked, dense, rtu, normalized bool
	}{
		{MethodCCN, true, false, false, true},
		{MethodColumnar, true, false, false, true},
		{MethodConstructive, true, false, false, true},
		{MethodTBPTT, false, true, false, false},
		{MethodRTRL, false, true, false, false},
		{MethodSnAp1, false, true, false, false},
		{MethodUORO, false, true, false, false},
		{MethodLinear, false, false, false, true},
		{MethodRTU, false, false, true, true},
		{MethodRTULinear, false, false, true, true},
		{"gru", false, false, false, false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.networked, tc.m.Networked(), "%s networked", tc.m)
		assert.Equal(t, tc.dense, tc.m.Dense(), "%s dense", tc.m)
		assert.Equal(t, tc.rtu, tc.m.IsRTU(), "%s rtu", tc.m)
		assert.Equal(t, tc.normalized, tc.m.Normalized(), "%s normalized", tc.m)
		assert.Equal(t, tc.m != "gru", tc.m.Known(), "%s known", tc.m)
	}
}

// Staged: the networks that add their features over more than one stage.
func TestStaged(t *testing.T) {
	for _, m := range Methods() {
		info, _ := Info(m)
		assert.Equal(t, m == MethodCCN || m == MethodConstructive, info.Staged(), "%s staged", m)
	}
	var none MethodInfo
	assert.False(t, none.Staged())
}

func TestRegister(t *testing.T) {
	valid := func() MethodInfo {
		return MethodInfo{Method: "toy", Family: FamilyOther, Label: "Toy", Color: color.RGBA{R: 1, A: 0xFF},
			Gate: GateExempt, Exempt: "a test",
			New: func(Spec) (Engine, Head) { return nil, Head{} },
			Ops: func(Spec) (int, bool) { return 1, true }}
	}
	tests := []struct {
		name   string
		change func(*MethodInfo)
		panics string
	}{
		{"no name", func(i *MethodInfo) { i.Method = "" }, "arch: Register: a method needs a name"},
		{"no label", func(i *MethodInfo) { i.Label = "" }, "arch: Register toy: no label"},
		{"no colour", func(i *MethodInfo) { i.Color = color.RGBA{} }, "arch: Register toy: no colour"},
		{"built-in family", func(i *MethodInfo) { i.Family = FamilyDense }, "arch: Register toy: family \"dense\""},
		{"no constructor", func(i *MethodInfo) { i.New = nil }, "arch: Register toy: a method of FamilyOther needs New and Ops"},
		{"no count", func(i *MethodInfo) { i.Ops = nil }, "arch: Register toy: a method of FamilyOther needs New and Ops"},
		{"gated", func(i *MethodInfo) { i.Gate = GateChecked }, "arch: Register toy: the run-time gate checks the built-in families only"},
		{"exempt without reason", func(i *MethodInfo) { i.Exempt = "" }, "arch: Register toy: exempt from the gate without a reason"},
		{"taken name", func(i *MethodInfo) { i.Method = MethodCCN }, "arch: Register: method ccn already registered"},
		{"paper model without its count", func(i *MethodInfo) { i.PaperModel = true }, "arch: Register toy: PaperModel and PaperOps disagree"},
		{"stages", func(i *MethodInfo) { i.PerStage = func(Spec) int { return 1 } }, "arch: Register toy: PerStage is the built-in networks'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			info := valid()
			tc.change(&info)
			defer func() {
				r := recover()
				require.NotNil(t, r, "Register accepted the entry")
				assert.Contains(t, r, tc.panics)
			}()
			Register(info)
		})
	}

	before := Methods()
	unregister := Register(valid())
	assert.Equal(t, append(before, "toy"), Methods(), "a registered method is listed last")
	assert.True(t, Method("toy").Known())
	assert.Equal(t, FamilyOther, Method("toy").Family())
	assert.False(t, Method("toy").Dense())
	unregister()
	assert.Equal(t, before, Methods())
	assert.False(t, Method("toy").Known())
}

// The legends of the built-in methods, as the figures show them.
func TestLegends(t *testing.T) {
	s := Spec{Hidden: 4, Truncation: 15, Features: 16, FeaturesPerStage: 4}
	for _, tc := range []struct {
		m             Method
		legend, short string
	}{
		{MethodTBPTT, "T-BPTT k=15, H=4", "T-BPTT 15:4"},
		{MethodRTRL, "RTRL H=4", "RTRL H=4"},
		{MethodSnAp1, "SnAp-1 H=4", "SnAp-1"},
		{MethodUORO, "UORO H=4", "UORO"},
		{MethodRTU, "RTU n=4", "RTU n=4"},
		{MethodCCN, "CCN", "CCN"},
		{MethodLinear, "Linear (no memory)", "Linear (no memory)"},
	} {
		info, _ := Info(tc.m)
		assert.Equal(t, tc.legend, info.LegendOf(s), "%s", tc.m)
		assert.Equal(t, tc.short, info.ShortOf(s), "%s", tc.m)
	}
}

func TestSizes(t *testing.T) {
	s := Spec{Hidden: 1, Truncation: 2, Features: 3, FeaturesPerStage: 4}
	for _, tc := range []struct {
		z    Size
		flag string
		v    int
	}{
		{SizeHidden, "hidden", 1}, {SizeTraceUnits, "hidden", 1}, {SizeTruncation, "truncation", 2},
		{SizeFeatures, "features", 3}, {SizePerStage, "features-per-stage", 4},
	} {
		assert.Equal(t, tc.flag, tc.z.Flag())
		assert.Equal(t, tc.v, tc.z.Of(s), "%s", tc.z)
	}
	assert.PanicsWithValue(t, `arch: unknown size "depth"`, func() { Size("depth").Of(s) })
	info, _ := Info(MethodCCN)
	assert.True(t, info.Takes(SizePerStage))
	assert.False(t, info.Takes(SizeHidden))
	for m, u := range map[Method]int{MethodColumnar: 3, MethodConstructive: 1, MethodCCN: 4} {
		info, _ := Info(m)
		assert.Equal(t, u, info.PerStage(s), "%s features per stage", m)
	}
}
