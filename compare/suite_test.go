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
		"tbptt-px":  {Engine: "backward", Cell: "dense", Hidden: 2, Inputs: 40, Length: 10, Truncation: 3, OutBias: true, PixelInputs: true},
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
		InjectOffByOneWindow:       "tbptt tbptt-px",
		InjectDropForgetPath:       "tbptt tbptt-px",
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

// TestPixelRowsExerciseSparseSum: the trajectories of the rows with pixel
// inputs are sparse enough, in every window T-BPTT sums, for its sum of
// ∂W_ih over the nonzero inputs to run (backward's rule: at most one input
// in eight nonzero), so that those rows check that sum against the
// reference; and the other T-BPTT rows at 275 inputs are not.
func TestPixelRowsExerciseSparseSum(t *testing.T) {
	cfg := SuiteConfig{Cells: true, Networks: true}.withDefaults()
	pixels := 0
	for index, c := range Cases(cfg) {
		if c.Engine != "backward" || c.Inputs != AtariInputs {
			continue
		}
		for i := range cfg.Trajectories {
			tr := c.trajectory(newRand(cfg.Seed, index*1000+i), i)
			sparse := true
			for end := 1; end <= c.Length; end++ {
				start := max(0, end-c.Truncation)
				nnz := 0
				for _, x := range tr.Xs[start:end] {
					for _, v := range x {
						if v != 0 {
							nnz++
						}
					}
				}
				sparse = sparse && 8*nnz <= (end-start)*c.Inputs
			}
			assert.Equal(t, c.PixelInputs, sparse, "%s k=%d trajectory %d (%s)", c.CellName(), c.Truncation, i, tr.Kind)
		}
		if c.PixelInputs {
			pixels++
		}
	}
	assert.Equal(t, 2, pixels, "the rows with pixel inputs")
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

// The params and checked columns of the verification table, by hand from
// ColumnParams(m) = 4m + 8 and the dense LSTM's 4H(m+H+1) + H + 1: a cell
// checks all its parameters; a network of stages u_s has frozen columns
// Σ_{s<L} u_s·ColumnParams(m + F_s) besides its learnable vector
// u_L·ColumnParams(m + F_L) + F + 1; an auto case checks every stage's
// learnable vector in turn.
func TestCaseParamsChecked(t *testing.T) {
	staged := StagedSpec{Inputs: 3, FeaturesPerStage: 2, MaxFeatures: 6, Norm: FastNorm, Segments: []int{6, 6, 6}, From: 2}
	for _, tc := range []struct {
		name           string
		c              Case
		params, lo, hi int
	}{
		{"dense", Case{Engine: "forward", Cell: "dense", Hidden: 2, Inputs: 3, OutBias: true}, 4*2*6 + 3, 51, 51},
		{"columnar", Case{Engine: "forward", Cell: "columnar", Hidden: 3, Inputs: 3, Net: arch.Columnar(3, 3, FastNorm)}, 3*20 + 4, 64, 64},
		// Stages 2, 2, 2 on 3 inputs: frozen 2·20 + 2·28, learnable 2·36 + 7.
		{"ccn stage 2", Case{Engine: "forward", Cell: "ccn", Hidden: 6, Inputs: 3, Net: arch.CCN(3, 2, 2, FastNorm)}, 96 + 79, 79, 79},
		{"ccn 1->2", Case{Engine: "forward", Cell: "ccn", Hidden: 6, Inputs: 3, Net: staged.topologies()[2], Staged: &staged}, 96 + 79, 79, 79},
		// Stages 4, 4, 4, 2 on 12 inputs: learnable 4·56+5, 4·72+9, 4·88+13, 2·104+15.
		{"ccn auto", autoCases(12)[3], 4*56 + 4*72 + 4*88 + 2*104 + 15, 223, 365},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.params, tc.c.Params(), "params")
			lo, hi := tc.c.Checked()
			assert.Equal(t, [2]int{tc.lo, tc.hi}, [2]int{lo, hi}, "checked")
		})
	}
}
