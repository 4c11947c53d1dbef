package compare

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/reference"
)

// Every injection makes exactly the cases whose engine makes the mistake
// fail, and leaves the others passing (what ccn verify --inject shows).
func TestSuiteInjectionsFailWhereTheyApply(t *testing.T) {
	staged := StagedSpec{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 6, Norm: FastNorm, Segments: []int{6, 6, 6}, From: 2}
	cases := map[string]Case{
		"column":    {Engine: "forward", Cell: "column", Hidden: 1, Inputs: 3, Length: 10},
		"rtrl":      {Engine: "forward", Cell: "dense", Hidden: 2, Inputs: 3, Length: 10, OutBias: true},
		"tbptt":     {Engine: "backward", Cell: "dense", Hidden: 2, Inputs: 3, Length: 10, Truncation: 3, OutBias: true},
		"columnar":  {Engine: "forward", Cell: "columnar", Hidden: 3, Inputs: 3, Length: 10, Net: arch.Columnar(3, 3, FastNorm), Norm: "fast"},
		"ccn":       {Engine: "forward", Cell: "ccn", Hidden: 6, Inputs: 3, Length: 10, Net: arch.CCN(3, 2, 2, FastNorm), Norm: "fast"},
		"snap1":     {Engine: "snap1", Cell: "dense", Hidden: 2, Inputs: 3, Length: 10, OutBias: true},
		"uoro":      {Engine: "uoro", Cell: "dense", Hidden: 2, Inputs: 3, Length: 20, OutBias: true},
		"snap1-h1":  {Engine: "snap1", Cell: "dense", Hidden: 1, Inputs: 3, Length: 10},
		"snap1-dg":  {Engine: "snap1", Cell: "dense-diag", Hidden: 3, Inputs: 3, Length: 10},
		"linear":    {Engine: "forward", Cell: "linear", Inputs: 3, Length: 10, Norm: "fast"},
		"linear-0":  {Engine: "forward", Cell: "linear", Inputs: 3, Length: 10, Norm: "off"},
		"rtu":       {Engine: "forward", Cell: CellRTU, Hidden: 2, Inputs: 3, Length: 10},
		"rtu-lin":   {Engine: "forward", Cell: CellRTULinear, Hidden: 2, Inputs: 3, Length: 10},
		"rtu-n":     {Engine: "forward", Cell: CellRTU, Hidden: 2, Inputs: 3, Length: 10, Norm: "fast"},
		"rtu-lin-n": {Engine: "forward", Cell: CellRTULinear, Hidden: 2, Inputs: 3, Length: 10, Norm: "fast"},
		"staged":    {Engine: "forward", Cell: "ccn", Hidden: 6, Inputs: 3, Length: 18, Net: staged.topologies()[2], Norm: "fast", Staged: &staged},
		"auto":      autoCases(12)[3],
	}
	fails := map[Injection]string{
		InjectNone:                 "",
		InjectDropRecurrentTerm:    "column rtrl columnar ccn staged auto snap1 snap1-h1 snap1-dg rtu rtu-lin rtu-n rtu-lin-n",
		InjectOffByOneWindow:       "tbptt",
		InjectDropForgetPath:       "tbptt",
		InjectPreviousStepFeatures: "ccn staged auto linear linear-0",
		InjectRestartStats:         "staged auto",
		InjectRestartState:         "staged auto",
		InjectAsymmetricUORO:       "uoro",
		InjectDropPhaseCoupling:    "rtu rtu-lin rtu-n rtu-lin-n",
		InjectDropNormScale:        "rtu-n rtu-lin-n",
	}
	for _, in := range Injections() {
		assert.Contains(t, fails, in, "every injection is tested")
	}
	r := reference.New()
	for in, want := range fails {
		for name, c := range cases {
			res := runCase(r, c, SuiteConfig{Trajectories: 2, Seed: 5, Inject: in}, 0)
			assert.NoError(t, res.Err)
			shouldFail := strings.Contains(" "+want+" ", " "+name+" ")
			assert.Equal(t, !shouldFail, res.Pass(), "%q on %s: max rel %.3g", in, name, res.MaxRel)
		}
	}
}

// The default suite runs every parameter scale (the saturated one too) on
// every case, network kinds at 275 inputs, stage changes (1 to 3) under every
// normalization, and the runs' own normalization.
func TestSuiteCoverage(t *testing.T) {
	cfg := SuiteConfig{Cells: true, Networks: true}
	assert.Equal(t, len(scales), cfg.withDefaults().Trajectories)
	changes := map[string]map[string]bool{}
	atari := map[string]bool{}
	for _, c := range Cases(cfg) {
		if c.Inputs == AtariInputs {
			atari[c.Cell] = true
		}
		if c.Staged != nil {
			if changes[c.Cell] == nil {
				changes[c.Cell] = map[string]bool{}
			}
			changes[c.Cell][c.StageName()+" "+c.Norm] = true
			assert.Equal(t, len(c.Staged.Segments)-1, c.Staged.From, "the row compares the segment after its change")
		}
	}
	for _, cell := range []string{"column", "dense", "linear", "columnar", "constructive", "ccn"} {
		assert.True(t, atari[cell], "%s at 275 inputs", cell)
	}
	for _, cell := range []string{"constructive", "ccn"} {
		for _, n := range networkNorms {
			for _, ch := range []string{"0->1", "1->2", "2->3"} {
				assert.True(t, changes[cell][ch+" "+n.name], "%s %s %s", cell, ch, n.name)
			}
		}
	}
}

// The linear control's rows of ccn verify pass, and their defect fails them.
func TestLinearRows(t *testing.T) {
	r := reference.New()
	n := 0
	for i, c := range Cases(SuiteConfig{Cells: true}) {
		if c.Cell != "linear" {
			continue
		}
		n++
		res := runCase(r, c, SuiteConfig{Seed: 1}, i)
		assert.True(t, res.Pass(), "%+v: max rel %.3g, err %v", c, res.MaxRel, res.Err)
		t.Logf("linear m=%d T=%d norm=%s: max rel %.2g", c.Inputs, c.Length, c.Norm, res.MaxRel)
		if c.Inputs == AtariInputs && c.Norm == "run" {
			bad := runCase(r, c, SuiteConfig{Seed: 1, Inject: InjectPreviousStepFeatures}, i)
			assert.False(t, bad.Pass(), "the defect fails the row")
		}
	}
	assert.Equal(t, 16, n, "4 normalizations × (12 inputs at 3 lengths + 275 inputs)")
}
