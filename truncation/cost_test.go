package truncation

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

func TestCostSmall(t *testing.T) {
	cfg := CostConfig{
		Features: []int{2, 8}, Hidden: []int{8}, RTRLHidden: []int{8}, Ks: []int{1, 5},
		PerStage: 4, Duration: 2 * time.Millisecond, Repeats: 3,
	}
	pts := Cost(cfg)
	col := arch.ColumnParams(inputs)
	type key struct {
		label string
		size  int
	}
	want := map[key]struct {
		method arch.Method
		params int
	}{
		{"Columnar RTRL", 2}: {arch.MethodColumnar, 2*col + 2 + 1},
		{"Columnar RTRL", 8}: {arch.MethodColumnar, 8*col + 8 + 1},
		// CCN of 8 features, 4 per stage: 4 frozen columns on x, 4 learning
		// columns on x and the 4 frozen features, head of 8 weights and a bias.
		{"CCN (4 per stage)", 8}: {arch.MethodCCN, 4*col + 4*arch.ColumnParams(inputs+4) + 8 + 1},
		{"T-BPTT k=1", 8}:        {arch.MethodTBPTT, arch.Dense{Hidden: 8, Inputs: inputs}.NumParams()},
		{"T-BPTT k=5", 8}:        {arch.MethodTBPTT, arch.Dense{Hidden: 8, Inputs: inputs}.NumParams()},
		{"dense exact RTRL", 8}:  {arch.MethodRTRL, arch.Dense{Hidden: 8, Inputs: inputs}.NumParams()},
	}
	require.Len(t, pts, len(want), "CCN skips sizes below one stage")
	got := map[key]CostPoint{}
	for _, p := range pts {
		got[key{p.Label, p.Size}] = p
		assert.Greater(t, p.Micros, 0.0, p.Label)
	}
	for k, w := range want {
		p, ok := got[k]
		if assert.True(t, ok, "missing %v", k) {
			assert.Equal(t, w.method, p.Method, "%v", k)
			assert.Equal(t, w.params, p.Params, "%v", k)
		}
	}
	// Dense exact RTRL at H = 8 does about 100 times the work of one T-BPTT
	// step at H = 8 (O(H⁴) against O(H²)); a factor 3 survives noisy timing.
	assert.Greater(t, got[key{"dense exact RTRL", 8}].Micros, 3*got[key{"T-BPTT k=1", 8}].Micros)
}

func TestCostConfigValidate(t *testing.T) {
	assert.NoError(t, CostConfig{}.Validate())
	assert.ErrorContains(t, CostConfig{Ks: []int{0}}.Validate(), "size, k or count 0")
	assert.ErrorContains(t, CostConfig{Duration: -1}.Validate(), "negative timing")
	assert.Panics(t, func() { Cost(CostConfig{Features: []int{-4}}) })
}
