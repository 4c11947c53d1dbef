package forward

import (
	"math/rand/v2"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestColumnMatchesFiniteDifferences(t *testing.T) {
	tests := []struct {
		name  string
		m, T  int
		scale float64
	}{
		{"one input one step", 1, 1, 0.5},
		{"m=3 short", 3, 5, 1},
		{"m=5 long", 5, 40, 0.8},
		{"large weights", 4, 25, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.m), uint64(tt.T)))
			col := NewColumn(tt.m)
			fillUniform(rng, col.Params(), tt.scale)
			xs := randomInputs(rng, tt.T, tt.m)
			for _, x := range xs {
				col.Step(x)
			}
			theta := append([]float64(nil), col.Params()...)
			assert.InDelta(t, refColumnRun(theta, xs), col.H(), 1e-14)
			want := centralDiff(theta, func() float64 { return refColumnRun(theta, xs) })
			assert.InDeltaSlice(t, want, col.Trace(), 1e-7)
			got := make([]float64, col.NumParams())
			col.Grad(got)
			assert.Equal(t, col.Trace(), got)
		})
	}
}

func TestColumnDropRecurrentTermIsDetected(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	col := NewColumn(3)
	col.Defect = DropRecurrentTerm
	fillUniform(rng, col.Params(), 1)
	xs := randomInputs(rng, 10, 3)
	for _, x := range xs {
		col.Step(x)
	}
	theta := append([]float64(nil), col.Params()...)
	want := centralDiff(theta, func() float64 { return refColumnRun(theta, xs) })
	maxErr := 0.0
	for p := range want {
		maxErr = max(maxErr, abs(want[p]-col.Trace()[p]))
	}
	assert.Greater(t, maxErr, 1e-3)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestColumnFrozenStepKeepsTracesAndAdvancesState(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := NewColumn(2), NewColumn(2)
	fillUniform(rng, a.Params(), 1)
	copy(b.Params(), a.Params())
	xs := randomInputs(rng, 6, 2)
	a.Step(xs[0])
	b.Step(xs[0])
	before := append([]float64(nil), b.Trace()...)
	for _, x := range xs[1:] {
		a.Step(x)
		b.StepFrozen(x)
	}
	assert.Equal(t, a.H(), b.H())
	assert.Equal(t, a.C(), b.C())
	assert.Equal(t, before, b.Trace())
}

func TestColumnReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	col := NewColumn(2)
	fillUniform(rng, col.Params(), 1)
	params := append([]float64(nil), col.Params()...)
	x := []float64{0.3, -0.2}
	first := col.Step(x)
	col.Step(x)
	col.Reset()
	assert.Zero(t, col.H())
	assert.Zero(t, col.C())
	assert.Equal(t, make([]float64, col.NumParams()), col.Trace())
	assert.Equal(t, params, col.Params())
	assert.Equal(t, first, col.Step(x))
}

func TestColumnPanics(t *testing.T) {
	assert.PanicsWithValue(t, "forward: column needs at least one input, got 0", func() { NewColumn(0) })
	col := NewColumn(3)
	assert.PanicsWithValue(t, "forward: column input has length 2, want 3", func() { col.Step(make([]float64, 2)) })
	assert.PanicsWithValue(t, "forward: column input has length 4, want 3", func() { col.StepFrozen(make([]float64, 4)) })
	assert.PanicsWithValue(t, "forward: column gradient has length 1, want 20", func() { col.Grad(make([]float64, 1)) })
}

func TestColumnAllocs(t *testing.T) {
	col := NewColumn(12)
	fillUniform(rand.New(rand.NewPCG(1, 1)), col.Params(), 0.5)
	x := make([]float64, 12)
	dst := make([]float64, col.NumParams())
	allocs := testing.AllocsPerRun(100, func() {
		col.Step(x)
		col.Grad(dst)
		col.StepFrozen(x)
	})
	require.Zero(t, allocs)
}

func TestColumnOps(t *testing.T) {
	// 8 operations per parameter except 7 per bias, plus 8m+18 forward and 21 scalars.
	for _, m := range []int{1, 12, 28} {
		col := NewColumn(m)
		assert.Equal(t, 8*arch.ColumnParams(m)-4+8*m+18+21, col.OpsPerStep())
		assert.Equal(t, 8*m+18, col.FrozenOpsPerStep())
	}
}
