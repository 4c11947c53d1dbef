package opcount

import (
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLargestAndNearestTBPTT(t *testing.T) {
	// Costs at budget 4000, x = 12, computed by hand from (k+1)(4H²+52H):
	// k=2: H=12 3600, H=13 4056;  k=3: 10 3680, 11 4224;  k=5: 7 3360, 8 4032;
	// k=8: 5 3240, 6 4104;  k=10: 5 3960, 6 5016;  k=15: 3 3072, 4 4352;
	// k=20: 2 2520, 3 4032;  k=30: 2 3720, 3 5952.
	for _, tc := range []struct{ k, floor, nearest int }{
		{2, 12, 13}, {3, 10, 11}, {5, 7, 8}, {8, 5, 6},
		{10, 5, 5}, {15, 3, 4}, {20, 2, 3}, {30, 2, 2},
	} {
		assert.Equal(t, tc.floor, LargestTBPTT(4000, 12, tc.k), "floor k=%d", tc.k)
		assert.Equal(t, tc.nearest, NearestTBPTT(4000, 12, tc.k), "nearest k=%d", tc.k)
	}
	// Exact fits and budgets below one unit.
	assert.Equal(t, 13, LargestTBPTT(4056, 12, 2))
	assert.Equal(t, 12, LargestTBPTT(4055, 12, 2))
	assert.Equal(t, 0, LargestTBPTT(15, 0, 1)) // one unit costs 16
	assert.Equal(t, 1, NearestTBPTT(15, 0, 1))
	// Tie: 4H²+4H at k=1 costs 16 (H=1) and 48 (H=2); 32 is halfway.
	assert.Equal(t, 1, NearestTBPTT(32, 0, 1))
	assert.Equal(t, 2, NearestTBPTT(33, 0, 1))
}

func TestLargestOthers(t *testing.T) {
	assert.Equal(t, 10, LargestColumnar(4000, 12))               // 3920; 11 costs 4312
	assert.Equal(t, 9, LargestColumnar(3919, 12))                // 9 costs 3528
	assert.Equal(t, 0, LargestColumnar(391, 12))                 // 1 costs 392
	assert.Equal(t, 16, LargestCCN(4000, 12, 4))                 // 3360; 20 costs 4048
	assert.Equal(t, 26, LargestCCN(4000, 12, 2))                 // 3952; 28 costs 4320
	assert.Equal(t, 8, LargestCCN(4000, 12, 8))                  // 3808; 16 costs 5376
	assert.Equal(t, 29, LargestConstructive(4000, 12))           // 3850; 30 costs 4032
	assert.Equal(t, 0, LargestCCN(1000, 12, 4))                  // 4 features cost 1700
	assert.Equal(t, 1_000_000, LargestColumnar(392_000_000, 12)) // 392 per column: binary search on large budgets
}

func TestMatched(t *testing.T) {
	got := Matched(4000, 12, []int{15, 30}, []int{4})
	want := []Config{ // in the registry's order, each as the Largest functions size it
		{Method: arch.MethodCCN, Features: 16, Inputs: 12, PerStage: 4},
		{Method: arch.MethodColumnar, Features: 10, Inputs: 12},
		{Method: arch.MethodConstructive, Features: 29, Inputs: 12},
		{Method: arch.MethodTBPTT, Features: 3, Inputs: 12, Truncation: 15},
		{Method: arch.MethodTBPTT, Features: 2, Inputs: 12, Truncation: 30},
		{Method: arch.MethodRTU, Features: 21, Inputs: 12},       // 7·21·26 = 3822
		{Method: arch.MethodRTULinear, Features: 21, Inputs: 12}, // the same count
	}
	assert.Equal(t, want, got)
	for _, c := range got {
		assert.LessOrEqual(t, c.Ops(), 4000, c.String())
	}
	// Nothing fits: one T-BPTT unit with k=1 and 12 inputs costs 2·56, one
	// column 7·56, one RTU unit 7·26.
	assert.Empty(t, Matched(100, 12, []int{1}, []int{1}))
}

func TestPaperTBPTTPairs(t *testing.T) {
	pairs := PaperTBPTTPairs()
	require.Len(t, pairs, 8)
	wantK := []int{2, 3, 5, 8, 10, 15, 20, 30}
	wantH := []int{13, 10, 8, 5, 5, 4, 3, 2}
	wantOps := []int{4056, 3680, 4032, 3240, 3960, 4352, 4032, 3720}
	for i, p := range pairs {
		assert.Equal(t, arch.MethodTBPTT, p.Method)
		assert.Equal(t, wantK[i], p.Truncation)
		assert.Equal(t, wantH[i], p.Features)
		assert.Equal(t, 12, p.Inputs)
		assert.Equal(t, wantOps[i], p.Ops(), p.String())
		ratio := float64(p.Ops()) / 4000
		assert.True(t, ratio >= 0.81 && ratio <= 1.09, "%s: %v of the 4000 budget", p, ratio)
	}
	assert.Equal(t, wantK, PaperTruncations())

	// The documented claim: no budget makes the floor or the nearest rule
	// reproduce all eight pairs.
	for budget := 1; budget <= 10_000; budget++ {
		floorAll, nearestAll := true, true
		for _, p := range pairs {
			floorAll = floorAll && LargestTBPTT(budget, 12, p.Truncation) == p.Features
			nearestAll = nearestAll && NearestTBPTT(budget, 12, p.Truncation) == p.Features
		}
		require.False(t, floorAll, "floor reproduces the pairs at budget %d", budget)
		require.False(t, nearestAll, "nearest reproduces the pairs at budget %d", budget)
	}
}
