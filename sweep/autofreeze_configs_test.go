package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

// unshared returns the candidates of the groups of study from (at scale)
// that study into (at scale2) does not run: for each group of from, a group
// of into named rename(name) must have a candidate of the same resolved
// configuration, which is the same run identity at every seed.
func unshared(t *testing.T, from, into Study, scale, scale2 string, rename func(string) string) []string {
	t.Helper()
	pf, err := from.Plan(scale)
	require.NoError(t, err)
	pi, err := into.Plan(scale2)
	require.NoError(t, err)
	ids := map[string][]string{}
	for _, g := range pi.Groups {
		for _, c := range g.Candidates {
			ids[g.Name] = append(ids[g.Name], ID(c.Config.WithSeed(0)))
		}
	}
	var bad []string
	for _, g := range pf.Groups {
		name := rename(g.Name)
		have, ok := ids[name]
		if !ok {
			bad = append(bad, fmt.Sprintf("%s has no group %s", into.Name, name))
			continue
		}
		for _, c := range g.Candidates {
			if id := ID(c.Config.WithSeed(0)); !strings.Contains(strings.Join(have, " "), id) {
				bad = append(bad, fmt.Sprintf("%s/%s %s (%s) not in %s", from.Name, g.Name, c.Label, id, into.Name))
			}
		}
	}
	return bad
}

// TestAutoFreezingSharesRuns: the fixed schedules of auto-freezing.yaml are
// the steps-per-stage ablation's runs at every scale the two share (each of
// the ablation's candidates is one of the study's), the auto group is tuned
// over the same candidates as the fixed ones with stage-min and stage-max
// scaled like steps-per-stage; on seaquest the fixed group's check runs are
// atari-main-comparison's at the medium scale. Teeth: a fixed group with
// one more feature shares nothing.
func TestAutoFreezingSharesRuns(t *testing.T) {
	abl, auto := loadStudy(t, "ccn-steps-per-stage"), loadStudy(t, "auto-freezing")
	same := func(s string) string { return s }
	for _, scale := range []string{"paper", "quick", "smoke"} {
		assert.Empty(t, unshared(t, abl, auto, scale, scale, same), scale)

		p, err := auto.Plan(scale)
		require.NoError(t, err)
		var fixed, autoG *Group
		for i, g := range p.Groups {
			switch g.Name {
			case "ccn/sps=0.5M":
				fixed = &p.Groups[i]
			case "ccn/sps=auto":
				autoG = &p.Groups[i]
			}
		}
		require.NotNil(t, fixed, scale)
		require.NotNil(t, autoG, scale)
		assert.Equal(t, candidates(*fixed), candidates(*autoG), "%s: tuned alike", scale)
		fc, ac := fixed.Candidates[0].Config, autoG.Candidates[0].Config
		assert.Equal(t, experiments.AutoStepsPerStage, ac.Config().StepsPerStage, scale)
		assert.Equal(t, 40, ac.Config().Features, scale)
		assert.Equal(t, fc.Config().StepsPerStage, ac.AutoFreeze().Min, "%s: stage-min is the shortest fixed stage", scale)
		assert.Equal(t, 10*fc.Config().StepsPerStage, ac.AutoFreeze().Max, "%s: stage-max is the longest (5M)", scale)
	}

	main, atari := loadStudy(t, "atari-main-comparison"), loadStudy(t, "auto-freezing-atari")
	p, err := atari.Plan("medium")
	require.NoError(t, err)
	require.Len(t, p.Groups, 2)
	// Both groups against atari-main-comparison's ccn group on the same game:
	// only the auto group's six candidates are its own.
	miss := unshared(t, atari, main, "medium", "medium", func(s string) string { return "ccn@" + s[strings.Index(s, "@")+1:] })
	assert.Len(t, miss, 6)
	for _, m := range miss {
		assert.Contains(t, m, "auto-freezing-atari/ccn/sps=auto@seaquest")
	}
	for _, g := range p.Groups {
		c := g.Candidates[0].Config
		assert.Equal(t, "seaquest", c.Config().Env)
		assert.Equal(t, 10_000_000, p.FinalConfig(0, 0).Config().Steps, "finals at the check's length")
		if c.Config().StepsPerStage == experiments.AutoStepsPerStage {
			assert.Equal(t, forwardMinMax{1666667, 6666667}, forwardMinMax{c.AutoFreeze().Min, c.AutoFreeze().Max}, "half and twice the fixed stage")
		}
	}

	// Teeth: one more feature in the auto-freezing file's 0.5M group.
	b, err := os.ReadFile(filepath.Join("../experiments/configs", "auto-freezing.yaml"))
	require.NoError(t, err)
	changed := strings.Replace(string(b), `steps-per-stage: 500000, features: 40}`, `steps-per-stage: 500000, features: 42}`, 1)
	require.NotEqual(t, string(b), changed)
	bad, err := Parse([]byte(changed))
	require.NoError(t, err)
	miss = unshared(t, abl, bad, "paper", "paper", same)
	assert.NotEmpty(t, miss)
	for _, m := range miss {
		assert.Contains(t, m, "ccn/sps=0.5M")
	}
}

type forwardMinMax struct{ Min, Max int }
