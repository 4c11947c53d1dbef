package sweep

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/opcount"
)

// TestRTUAtariSharesRuns checks rtu-atari.yaml (docs/rtu.md): its RTUs are
// the largest within CCN 15's operation budget on the games' inputs; its
// ccn, linear and tbptt/4:10 groups are atari-main-comparison's candidates
// on seaquest (their check runs are that study's), and its CCN finals are
// auto-freezing-atari's fixed schedule's, so that only the RTUs' check runs
// and the T-BPTT and control finals are new. Teeth: a CCN of 16 features
// shares nothing.
func TestRTUAtariSharesRuns(t *testing.T) {
	rtu := loadStudy(t, "rtu-atari")
	p, err := rtu.Plan("medium")
	require.NoError(t, err)
	const inputs = 275
	budget := opcount.CCN(15, inputs, 5)
	units := 0
	for _, g := range p.Groups {
		c := g.Candidates[0].Config.Config()
		assert.Equal(t, "seaquest", c.Env, g.Name)
		assert.Equal(t, 10_000_000, p.FinalConfig(0, 0).Config().Steps, "finals at the check's length")
		if c.Method == arch.MethodRTU || c.Method == arch.MethodRTULinear {
			units++
			assert.Equal(t, opcount.LargestRTU(budget, inputs), c.Hidden, g.Name)
			assert.Len(t, g.Candidates, 6, "%s: the medium scale's six step sizes", g.Name)
		}
	}
	assert.Equal(t, 2, units, "both RTU variants")
	assert.LessOrEqual(t, opcount.RTU(13, inputs), budget)
	assert.Greater(t, opcount.RTU(14, inputs), budget)

	main := loadStudy(t, "atari-main-comparison")
	// atari-main-comparison merges its T-BPTT pairs into one group at this scale.
	merged := func(s string) string { return strings.Replace(s, "tbptt/4:10@", "tbptt@", 1) }
	miss := unshared(t, rtu, main, "medium", "medium", merged)
	assert.ElementsMatch(t, []string{
		"atari-main-comparison has no group rtu@seaquest",
		"atari-main-comparison has no group rtu-linear@seaquest",
	}, miss, "every other candidate is one of atari-main-comparison's")

	auto := loadStudy(t, "auto-freezing-atari")
	pa, err := auto.Plan("medium")
	require.NoError(t, err)
	ccn, fixed := groupIndex(t, p, "ccn@seaquest"), groupIndex(t, pa, "ccn/sps=3.33M@seaquest")
	require.Len(t, p.Groups[ccn].Candidates, len(pa.Groups[fixed].Candidates))
	for c := range p.Groups[ccn].Candidates {
		assert.Equal(t, ID(pa.FinalConfig(fixed, c)), ID(p.FinalConfig(ccn, c)), "CCN's finals are auto-freezing-atari's")
	}

	b, err := os.ReadFile("../experiments/configs/rtu-atari.yaml")
	require.NoError(t, err)
	changed := strings.Replace(string(b), "{method: ccn, features: 15,", "{method: ccn, features: 16,", 1)
	require.NotEqual(t, string(b), changed)
	bad, err := Parse([]byte(changed))
	require.NoError(t, err)
	assert.Len(t, unshared(t, bad, main, "medium", "medium", merged), 2+6, "and CCN's six candidates")
}

// groupIndex is the index of p's group name.
func groupIndex(t *testing.T, p Plan, name string) int {
	t.Helper()
	for g := range p.Groups {
		if p.Groups[g].Name == name {
			return g
		}
	}
	require.Failf(t, "no group", "plan %s has no group %s", p.Study, name)
	return -1
}
