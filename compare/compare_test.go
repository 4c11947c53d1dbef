package compare

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/backward"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/reference"
)

func TestMeasure(t *testing.T) {
	tests := []struct {
		name       string
		got, want  []float64
		abs, rel   float64
		shouldPass bool
	}{
		{"equal", []float64{1, 2}, []float64{1, 2}, 0, 0, true},
		{"small values use absolute scale", []float64{1e-3}, []float64{1e-3 + 1e-11}, 1e-11, 1e-11, true},
		{"large values use relative scale", []float64{1000}, []float64{1000 + 1e-8}, 1e-8, 1e-11, true},
		{"too far", []float64{1, 2}, []float64{1, 2 + 1e-9}, 1e-9, 1e-9 / 2, false},
		{"nan never passes", []float64{math.NaN()}, []float64{0}, math.Inf(1), math.Inf(1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Measure(tt.got, tt.want)
			assert.InDelta(t, tt.abs, a.MaxAbs, 1e-15+1e-6*tt.abs)
			assert.InDelta(t, tt.rel, a.MaxRel, 1e-15+1e-6*tt.rel)
			assert.Equal(t, tt.shouldPass, a.Pass())
		})
	}
	assert.Panics(t, func() { Measure([]float64{1}, nil) })
}

func checkSuite(t *testing.T, cfg SuiteConfig) {
	t.Helper()
	worst := Agreement{}
	n := 0
	Run(cfg, func(done, total int, r Result) {
		n++
		require.NoError(t, r.Err, "%+v", r.Case)
		assert.True(t, r.Pass(), "%s %s H=%d m=%d T=%d k=%d stage=%d norm=%s: max rel %.3g",
			r.Engine, r.Cell, r.Hidden, r.Inputs, r.Length, r.Truncation, r.Stage(), r.Norm, r.MaxRel)
		worst = worst.Worst(r.Agreement)
	})
	assert.Positive(t, n)
	t.Logf("%d cases, worst max abs %.3g, worst max rel %.3g", n, worst.MaxAbs, worst.MaxRel)
}

// Every cell engine agrees with the reference: columns and dense RTRL against
// full BPTT, T-BPTT against the truncated reference for k ∈ {1, 2, 5, 15, full},
// SnAp-1 and UORO. The full tier runs the defaults (every parameter scale, T up
// to 200); the short tier (-short) every row and scale with T up to 20.
func TestCellsAgreeWithReference(t *testing.T) {
	cfg := SuiteConfig{Seed: 1, Cells: true}
	if testing.Short() {
		cfg.Length = shortLength
	}
	checkSuite(t, cfg)
}

// Columnar, Constructive and CCN networks agree with the reference graph of
// the same topology, with normalization off, fast-moving, with the ε floor
// active and at the runs' decay, and across stage changes. The full tier runs
// the defaults (every parameter scale, 30 steps per stage); the short tier
// every row and scale with 10 steps per stage.
func TestNetworksAgreeWithReference(t *testing.T) {
	cfg := SuiteConfig{Seed: 2, Networks: true}
	if testing.Short() {
		cfg.NetworkLength = shortNetworkLength
	}
	checkSuite(t, cfg)
}

// The trajectory lengths of the suite in the short tier: every row, shorter.
const (
	shortLength        = 20 // cells: lengths 1 and 20 instead of 1, 20 and 200
	shortNetworkLength = 10 // networks: steps per stage instead of 30
)

// The short tier still runs every row of the suite, so that every engine,
// cell and network shape, truncation, normalization and stage change is
// checked against the reference by make test.
func TestShortSuiteKeepsEveryRow(t *testing.T) {
	key := func(c Case) string {
		return fmt.Sprintf("%s %s H=%d m=%d k=%d bias=%v norm=%s stage=%s", c.Engine, c.CellName(), c.Hidden, c.Inputs, c.Truncation, c.OutBias, c.Norm, c.StageName())
	}
	rows := func(cfg SuiteConfig) map[string]bool {
		m := map[string]bool{}
		for _, c := range Cases(cfg) {
			m[key(c)] = true
		}
		return m
	}
	full := rows(SuiteConfig{Cells: true, Networks: true})
	short := rows(SuiteConfig{Cells: true, Networks: true, Length: shortLength, NetworkLength: shortNetworkLength})
	assert.Equal(t, full, short)
	engines := map[string]bool{}
	for _, c := range Cases(SuiteConfig{Cells: true, Networks: true, Length: shortLength, NetworkLength: shortNetworkLength}) {
		engines[c.Engine+" "+c.Cell] = true
	}
	for _, e := range []string{"forward column", "forward dense", "backward dense", "snap1 dense", "snap1 dense-diag", "uoro dense",
		"forward columnar", "forward constructive", "forward ccn"} {
		assert.True(t, engines[e], "%s in the short suite", e)
	}
}

// The comparison has teeth: each injected defect makes its check fail, while
// the same check on the correct engine passes.
func TestInjectedErrorsAreCaught(t *testing.T) {
	r := reference.New()
	dense := arch.Dense{Hidden: 3, Inputs: 4}
	ccn := arch.CCN(5, 2, 2, arch.Normalization{Enabled: true, Decay: 0.9, Epsilon: 0.001})
	tests := []struct {
		name  string
		check func(defect bool) (Agreement, error)
	}{
		{"column drops the recurrent trace term", func(d bool) (Agreement, error) {
			rng := newRand(3, 0)
			return CheckColumn(r, 6, randomTrajectory(rng, 0, 25, 6), rng, pick(d, forward.DropRecurrentTerm, forward.NoDefect))
		}},
		{"dense RTRL drops the recurrent trace term", func(d bool) (Agreement, error) {
			rng := newRand(3, 1)
			return CheckDenseRTRL(r, dense, randomTrajectory(rng, 0, 25, 4), rng, pick(d, forward.DropRecurrentTerm, forward.NoDefect))
		}},
		{"T-BPTT window off by one (the authors' ring buffer)", func(d bool) (Agreement, error) {
			rng := newRand(3, 2)
			return CheckTBPTT(r, dense, 5, randomTrajectory(rng, 0, 25, 4), rng, pick(d, backward.OffByOneWindow, backward.NoDefect))
		}},
		{"T-BPTT drops the forget path", func(d bool) (Agreement, error) {
			rng := newRand(3, 3)
			return CheckTBPTT(r, dense, 0, randomTrajectory(rng, 0, 25, 4), rng, pick(d, backward.DropForgetPath, backward.NoDefect))
		}},
		{"CCN learning columns read previous-step features (the authors' staging)", func(d bool) (Agreement, error) {
			rng := newRand(3, 4)
			return CheckNetwork(r, ccn, randomTrajectory(rng, 0, 15, 5), rng, pick(d, forward.PreviousStepFeatures, forward.NoDefect))
		}},
		{"CCN drops the recurrent trace term", func(d bool) (Agreement, error) {
			rng := newRand(3, 5)
			return CheckNetwork(r, ccn, randomTrajectory(rng, 1, 15, 5), rng, pick(d, forward.DropRecurrentTerm, forward.NoDefect))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good, err := tt.check(false)
			require.NoError(t, err)
			assert.True(t, good.Pass(), "correct engine: max rel %.3g", good.MaxRel)
			bad, err := tt.check(true)
			require.NoError(t, err)
			assert.False(t, bad.Pass(), "defective engine passed: max rel %.3g", bad.MaxRel)
			t.Logf("correct %.2g, defective %.2g", good.MaxRel, bad.MaxRel)
		})
	}
}

func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// Gates driven far into saturation (|a| > 19, where Gorgonia's own Sigmoid
// rounds to exactly 1 with a zero derivative) still agree: the reference
// computes σ through tanh.
func TestSaturatedGatesAgree(t *testing.T) {
	shape := arch.Dense{Hidden: 2, Inputs: 3}
	rng := newRand(9, 0)
	tr := randomTrajectory(rng, 0, 30, 3)
	e := forward.NewDenseRTRL(shape)
	p := e.Params()
	fillUniform(rng, p, 0.5)
	for j := 0; j < shape.Hidden; j++ {
		p[shape.IdxB(arch.GateI, j)] = 21
		p[shape.IdxB(arch.GateF, j)] = 20
		p[shape.IdxB(arch.GateO, j)] = 22
	}
	ref, err := denseTruth(reference.New(), shape, append([]float64(nil), p...), tr.Xs, 0)
	require.NoError(t, err)
	a, err := agree(e.Step, e.Grad, shape.NumParams(), tr.Xs, rng, ref)
	require.NoError(t, err)
	assert.True(t, a.Pass(), "max rel %.3g", a.MaxRel)
}

// headDefect wraps an engine with the output bias and forgets b_out, either in
// the prediction or in the gradient: the comparison must notice both.
type headDefect struct {
	e         arch.Engine
	bOut      float64
	dropY     bool // predict without b_out
	dropGrad  bool // report ∂y/∂b_out = 0
	lastIndex int
}

func (h *headDefect) Step(x []float64) float64 {
	y := h.e.Step(x)
	if h.dropY {
		y -= h.bOut
	}
	return y
}

func (h *headDefect) Grad(dst []float64) {
	h.e.Grad(dst)
	if h.dropGrad {
		dst[h.lastIndex] = 0
	}
}

// The output bias b_out is compared like every other parameter: an engine
// that forgets it in the prediction or in the gradient fails, for T-BPTT and
// dense RTRL, while the engines themselves pass.
func TestOutputBiasIsChecked(t *testing.T) {
	r := reference.New()
	shape := arch.Dense{Hidden: 3, Inputs: 4, OutBias: true}
	engines := map[string]func() (arch.Engine, []float64){
		"tbptt": func() (arch.Engine, []float64) { e := backward.NewTBPTT(shape, 5); return e, e.Params() },
		"rtrl":  func() (arch.Engine, []float64) { e := forward.NewDenseRTRL(shape); return e, e.Params() },
	}
	for name, mk := range engines {
		for _, d := range []struct {
			name          string
			dropY, dropGr bool
		}{{"none", false, false}, {"prediction", true, false}, {"gradient", false, true}} {
			t.Run(name+"/"+d.name, func(t *testing.T) {
				rng := newRand(11, 0)
				tr := randomTrajectory(rng, 0, 20, shape.Inputs)
				e, p := mk()
				fillUniform(rng, p, 0.5)
				k := 0
				if name == "tbptt" {
					k = 5
				}
				ref, err := denseTruth(r, shape, append([]float64(nil), p...), tr.Xs, k)
				require.NoError(t, err)
				w := &headDefect{e: e, bOut: p[shape.IdxOutBias()], dropY: d.dropY, dropGrad: d.dropGr, lastIndex: shape.IdxOutBias()}
				a, err := agree(w.Step, w.Grad, shape.NumParams(), tr.Xs, rng, ref)
				require.NoError(t, err)
				assert.Equal(t, d.name == "none", a.Pass(), "max rel %.3g", a.MaxRel)
			})
		}
	}
}
