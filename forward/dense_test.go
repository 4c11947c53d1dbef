package forward

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDenseRTRLMatchesFiniteDifferences(t *testing.T) {
	tests := []struct {
		name    string
		shape   arch.Dense
		T       int
		defect  Defect
		matches bool
	}{
		{"H=1", arch.Dense{Hidden: 1, Inputs: 3}, 10, NoDefect, true},
		{"H=3 m=4", arch.Dense{Hidden: 3, Inputs: 4}, 20, NoDefect, true},
		{"H=4 m=2 long", arch.Dense{Hidden: 4, Inputs: 2}, 40, NoDefect, true},
		{"dropped recurrent term", arch.Dense{Hidden: 3, Inputs: 2}, 15, DropRecurrentTerm, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.shape.Hidden), uint64(tt.T)))
			d := NewDenseRTRL(tt.shape)
			d.Defect = tt.defect
			fillUniform(rng, d.Params(), 0.8)
			xs := randomInputs(rng, tt.T, tt.shape.Inputs)
			var y float64
			for _, x := range xs {
				y = d.Step(x)
			}
			theta := append([]float64(nil), d.Params()...)
			assert.InDelta(t, refDenseRun(tt.shape, theta, xs), y, 1e-13)
			want := centralDiff(theta, func() float64 { return refDenseRun(tt.shape, theta, xs) })
			got := make([]float64, d.NumParams())
			d.Grad(got)
			if tt.matches {
				assert.InDeltaSlice(t, want, got, 1e-7)
				return
			}
			maxErr := 0.0
			for p := range want {
				maxErr = max(maxErr, abs(want[p]-got[p]))
			}
			assert.Greater(t, maxErr, 1e-3)
		})
	}
}

func TestDenseRTRLWithOneUnitIsAColumn(t *testing.T) {
	const m = 5
	rng := rand.New(rand.NewPCG(7, 8))
	shape := arch.Dense{Hidden: 1, Inputs: m}
	d := NewDenseRTRL(shape)
	fillUniform(rng, d.Params(), 1)
	col := NewColumn(m)
	copy(col.Params(), d.Params()[:shape.NumCellParams()])
	wout := d.Params()[shape.IdxOut(0)]
	got := make([]float64, d.NumParams())
	for _, x := range randomInputs(rng, 12, m) {
		y := d.Step(x)
		h := col.Step(x)
		assert.InDelta(t, wout*h, y, 1e-15)
	}
	d.Grad(got)
	for p, tr := range col.Trace() {
		assert.InDelta(t, wout*tr, got[p], 1e-14, "parameter %d", p)
	}
	assert.InDelta(t, col.H(), got[shape.IdxOut(0)], 1e-15)
}

func TestDenseRTRLReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	d := NewDenseRTRL(arch.Dense{Hidden: 2, Inputs: 2})
	fillUniform(rng, d.Params(), 1)
	xs := randomInputs(rng, 3, 2)
	first := d.Step(xs[0])
	g1 := make([]float64, d.NumParams())
	d.Grad(g1)
	d.Step(xs[1])
	d.Reset()
	assert.Equal(t, first, d.Step(xs[0]))
	g2 := make([]float64, d.NumParams())
	d.Grad(g2)
	assert.Equal(t, g1, g2)
}

func TestDenseRTRLPanics(t *testing.T) {
	d := NewDenseRTRL(arch.Dense{Hidden: 2, Inputs: 3})
	assert.PanicsWithValue(t, "forward: dense input has length 1, want 3", func() { d.Step(make([]float64, 1)) })
	assert.PanicsWithValue(t, "forward: dense gradient has length 1, want 50", func() { d.Grad(make([]float64, 1)) })
	assert.Panics(t, func() { NewDenseRTRL(arch.Dense{Hidden: 0, Inputs: 3}) })
}

func TestDenseRTRLAllocs(t *testing.T) {
	d := NewDenseRTRL(arch.Dense{Hidden: 4, Inputs: 12})
	fillUniform(rand.New(rand.NewPCG(1, 1)), d.Params(), 0.5)
	x := make([]float64, 12)
	dst := make([]float64, d.NumParams())
	require.Zero(t, testing.AllocsPerRun(50, func() {
		d.Step(x)
		d.Grad(dst)
	}))
}

func TestDenseRTRLOps(t *testing.T) {
	// H=1 costs more than a column's fast form: the per-parameter update is
	// 8H²+10H+1 = 19 operations plus 2H = 2 for Grad.
	d := NewDenseRTRL(arch.Dense{Hidden: 1, Inputs: 12})
	P := 4 * (12 + 2)
	assert.Equal(t, 8*13+10+2+15+P*21, d.OpsPerStep())
	assert.Greater(t, d.OpsPerStep(), NewColumn(12).OpsPerStep())
}
