package sweep

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/arch"
)

var games = []string{"breakout", "freeway", "asterix", "seaquest", "space-invaders"}

func loadStudy(t *testing.T, name string) Study {
	t.Helper()
	s, err := Load(filepath.Join("../experiments/configs", name+".yaml"))
	require.NoError(t, err)
	return s
}

// family summarizes the candidates of each group family of a plan: the
// environments it runs on, its candidates per environment, and the settings
// that define it (same on every environment).
type family struct {
	envs  []string
	cands int
	desc  string
}

func families(t *testing.T, p Plan) map[string]*family {
	t.Helper()
	out := map[string]*family{}
	for _, g := range p.Groups {
		c := g.Candidates[0].Config.Config()
		desc := string(c.Method)
		switch c.Method {
		case arch.MethodTBPTT:
			desc += fmt.Sprintf(" k=%d H=%d", c.Truncation, c.Hidden)
		default:
			desc += fmt.Sprintf(" f=%d/%d sps=%d norm=%v", c.Features, c.FeaturesPerStage, c.StepsPerStage, !c.NoNorm)
		}
		f, ok := out[g.Family]
		if !ok {
			f = &family{cands: len(g.Candidates), desc: desc}
			out[g.Family] = f
		}
		assert.Equal(t, f.desc, desc, g.Name)
		assert.Equal(t, f.cands, len(g.Candidates), g.Name)
		f.envs = append(f.envs, g.Env)
		for _, cand := range g.Candidates {
			cc := cand.Config.Config()
			assert.Equal(t, g.Env, cc.Env, g.Name)
			assert.InDelta(t, 0.98, cc.Gamma, 0, "the games' γ")
			assert.InDelta(t, 0.99, *cc.Lambda, 0, "λ")
		}
	}
	return out
}

// TestAtariExperimentFiles checks the Atari studies against the paper's
// protocol (§5, Table 3 Atari rows) at the paper scale, and the smaller
// scales' games.
func TestAtariExperimentFiles(t *testing.T) {
	main := loadStudy(t, "atari-main-comparison")
	p, err := main.Plan("paper")
	require.NoError(t, err)
	assert.Equal(t, Seeds{0, 1, 2, 3, 4}, p.SweepSeeds)
	assert.Len(t, p.FinalSeeds, 20)
	assert.Equal(t, 30_000_000, p.Groups[0].Candidates[0].Config.Config().Steps)
	assert.Equal(t, 500_000, p.Groups[0].Candidates[0].Config.Config().Window, "the paper's error window")
	want := map[string]string{
		"ccn":          "ccn f=15/5 sps=10000000 norm=true",
		"columnar":     "columnar f=6/6 sps=0 norm=true",
		"constructive": "constructive f=10/1 sps=3000000 norm=true",
		"linear":       "linear f=0/0 sps=0 norm=true",
		"tbptt/15:2":   "tbptt k=15 H=2",
		"tbptt/8:5":    "tbptt k=8 H=5",
		"tbptt/5:7":    "tbptt k=5 H=7",
		"tbptt/4:10":   "tbptt k=4 H=10",
		"tbptt/2:25":   "tbptt k=2 H=25",
	}
	fams := families(t, p)
	require.Len(t, fams, len(want))
	for name, f := range fams {
		assert.Equal(t, want[name], f.desc, name)
		assert.Equal(t, games, f.envs, name)
		assert.Equal(t, map[bool]int{true: 6, false: 12}[f.desc[:5] == "tbptt"], f.cands, name)
	}

	cap := loadStudy(t, "atari-tbptt-capacity")
	p, err = cap.Plan("paper")
	require.NoError(t, err)
	fams = families(t, p)
	require.Len(t, fams, 28)
	for n := 2; n <= 15; n++ {
		assert.Equal(t, fmt.Sprintf("tbptt k=8 H=%d", n), fams[fmt.Sprintf("capacity/H=%d", n)].desc)
		assert.Equal(t, fmt.Sprintf("tbptt k=%d H=8", n), fams[fmt.Sprintf("truncation/k=%d", n)].desc)
	}
	assert.Len(t, p.FinalSeeds, 20)

	abl := loadStudy(t, "atari-normalization-ablation")
	p, err = abl.Plan("paper")
	require.NoError(t, err)
	fams = families(t, p)
	assert.Equal(t, "ccn f=16/4 sps=2500000 norm=true", fams["ccn"].desc)
	assert.Equal(t, "ccn f=16/4 sps=2500000 norm=false", fams["ccn-no-norm"].desc)
	assert.Equal(t, 12, fams["ccn"].cands)
	assert.Equal(t, 6, fams["ccn-no-norm"].cands)
	assert.Len(t, p.FinalSeeds, 15)
	assert.Equal(t, 10_000_000, p.Groups[0].Candidates[0].Config.Config().Steps)

	// Smaller scales: every game at quick, two at smoke; the quick T-BPTT
	// ranges keep their ends (the value at 15 normalizes the figure).
	for _, s := range []Study{main, cap, abl} {
		q, err := s.Plan("quick")
		require.NoError(t, err)
		sm, err := s.Plan("smoke")
		require.NoError(t, err)
		for _, f := range families(t, q) {
			assert.Equal(t, games, f.envs, s.Name)
		}
		for name, f := range families(t, sm) {
			assert.Equal(t, []string{"breakout", "freeway"}, f.envs, s.Name)
			assert.Contains(t, families(t, q), name, "smoke's groups are quick's")
		}
	}
	q, err := cap.Plan("quick")
	require.NoError(t, err)
	for _, n := range []string{"capacity/H=2", "capacity/H=15", "truncation/k=2", "truncation/k=15"} {
		assert.Contains(t, families(t, q), n)
	}
}

// A user's recorded stream joins the games (ccn sweep --envs +atari:FILE):
// one more group per method, run on env atari with the file.
func TestAtariStudyWithStream(t *testing.T) {
	file := filepath.Join(t.TempDir(), "Pong.pb")
	require.NoError(t, os.WriteFile(file, []byte{}, 0o644))
	s := loadStudy(t, "atari-main-comparison")
	s, err := s.WithEnvs(append(slices.Clone(s.Envs), "atari:"+file))
	require.NoError(t, err)
	p, err := s.Plan("quick")
	require.NoError(t, err)
	var pong []string
	for _, g := range p.Groups {
		if g.Env == "Pong" {
			pong = append(pong, g.Name)
			c := g.Candidates[0].Config.Config()
			assert.Equal(t, "atari", c.Env)
			assert.Equal(t, file, c.Stream)
		}
	}
	assert.Equal(t, []string{"ccn@Pong", "columnar@Pong", "constructive@Pong", "linear@Pong", "tbptt/15:2@Pong",
		"tbptt/8:5@Pong", "tbptt/5:7@Pong", "tbptt/4:10@Pong", "tbptt/2:25@Pong"}, pong)
	assert.Len(t, p.Groups, 6*9, "the five games and the stream")
}

// stageRuns counts the distinct runs of each stage of a plan (the final
// stage of each group at its candidate c, the same index for every group)
// and the steps of each stage's runs.
func stageRuns(t *testing.T, p Plan, c int) (sweepRuns, finalRuns int, sweepSteps, finalSteps map[int]int) {
	t.Helper()
	sweepSteps, finalSteps = map[int]int{}, map[int]int{}
	ids := map[string]bool{}
	for g := range p.Groups {
		for _, task := range p.SweepTasks(g) {
			if !ids[task.ID] {
				ids[task.ID] = true
				sweepRuns++
				sweepSteps[task.Config.Config().Steps]++
			}
		}
	}
	for g := range p.Groups {
		for _, task := range p.FinalTasks(g, min(c, len(p.Groups[g].Candidates)-1)) {
			require.False(t, ids[task.ID] && p.Sweeps(g), "a final run is a sweep run")
			if !ids[task.ID] {
				ids[task.ID] = true
				finalRuns++
				finalSteps[task.Config.Config().Steps]++
			}
		}
	}
	return sweepRuns, finalRuns, sweepSteps, finalSteps
}

// TestAtariMediumScale checks that the medium scale expands as
// docs/running-at-scale.md ("medium") says: the step-size check at 10M steps
// over sweep seeds 0-1, one configuration per method for every game, finals
// at 30M steps (10M for the ablation and the capacity study) over 5 seeds
// (2 for capacity), and the runs of each stage.
func TestAtariMediumScale(t *testing.T) {
	alphas := []string{"step-size=3e-05", "step-size=0.0001", "step-size=0.0003", "step-size=0.001", "step-size=0.003", "step-size=0.01"}
	main := loadStudy(t, "atari-main-comparison")
	p, err := main.Plan("medium")
	require.NoError(t, err)
	assert.Equal(t, AcrossEnvs, p.Selection)
	assert.Equal(t, Seeds{0, 1}, p.SweepSeeds)
	assert.Equal(t, Seeds{100, 101, 102, 103, 104}, p.FinalSeeds)
	labels := map[string][]string{}
	for g, grp := range p.Groups {
		var ls []string
		for c, cand := range grp.Candidates {
			ls = append(ls, cand.Label)
			sw, fin := cand.Config.Config(), p.FinalConfig(g, c).Config()
			assert.Equal(t, []int{10_000_000, 30_000_000}, []int{sw.Steps, fin.Steps}, grp.Name)
			if sw.Method != arch.MethodTBPTT {
				assert.Equal(t, []float64{0.001, 0.999998}, []float64{sw.Epsilon, sw.NormDecay}, grp.Name)
			}
			switch sw.Method {
			case arch.MethodCCN: // 10M steps per stage in the finals, 3 stages in each run
				assert.Equal(t, []int{3_333_333, 10_000_000, 15, 5}, []int{sw.StepsPerStage, fin.StepsPerStage, fin.Features, fin.FeaturesPerStage})
			case arch.MethodConstructive: // 3M steps per stage in the finals
				assert.Equal(t, []int{1_000_000, 3_000_000, 10}, []int{sw.StepsPerStage, fin.StepsPerStage, fin.Features})
			case arch.MethodColumnar:
				assert.Equal(t, 6, fin.Features)
			}
		}
		if old, ok := labels[grp.Family]; ok {
			assert.Equal(t, old, ls, "%s: the same candidates on every game", grp.Name)
		}
		labels[grp.Family] = ls
	}
	want := map[string][]string{"ccn": nil, "columnar": nil, "constructive": nil,
		"tbptt": {"hidden=2 step-size=0.0001 truncation=15", "hidden=5 step-size=0.0001 truncation=8", "hidden=5 step-size=0.0003 truncation=8", "hidden=5 step-size=0.001 truncation=8",
			"hidden=7 step-size=3e-05 truncation=5", "hidden=7 step-size=0.0001 truncation=5", "hidden=7 step-size=0.0003 truncation=5",
			"hidden=7 step-size=0.001 truncation=5", "hidden=7 step-size=0.003 truncation=5", "hidden=7 step-size=0.01 truncation=5",
			"hidden=10 step-size=0.0001 truncation=4", "hidden=10 step-size=0.0003 truncation=4", "hidden=10 step-size=0.001 truncation=4",
			"hidden=25 step-size=0.0001 truncation=2", "hidden=25 step-size=0.0003 truncation=2", "hidden=25 step-size=0.001 truncation=2"}}
	for _, f := range []string{"ccn", "columnar", "constructive"} {
		for _, a := range alphas {
			want[f] = append(want[f], "epsilon=0.001 "+a)
		}
	}
	want["linear"] = []string{"epsilon=0.001 step-size=1e-05"} // the control: one step size below the others' grid
	for _, a := range alphas {
		want["linear"] = append(want["linear"], "epsilon=0.001 "+a)
	}
	assert.Equal(t, want, labels)
	perGame := 0
	for _, ls := range want {
		perGame += len(ls)
	}
	nFamilies := len(want)
	sw, fin, swSteps, finSteps := stageRuns(t, p, 0)
	assert.Equal(t, 5*2*perGame, sw, "the check: every candidate × 2 seeds × 5 games")
	assert.Equal(t, map[int]int{10_000_000: sw}, swSteps)
	assert.Equal(t, 5*5*nFamilies, fin, "finals: one configuration per method × 5 seeds × 5 games")
	assert.Equal(t, map[int]int{30_000_000: fin}, finSteps)
	assert.Equal(t, []int{410, 125}, []int{sw, fin}, "docs/running-at-scale.md")

	abl := loadStudy(t, "atari-normalization-ablation")
	p, err = abl.Plan("medium")
	require.NoError(t, err)
	assert.Equal(t, AcrossEnvs, p.Selection)
	fams := families(t, p)
	assert.Equal(t, "ccn f=16/4 sps=2500000 norm=true", fams["ccn"].desc)
	assert.Equal(t, "ccn f=16/4 sps=2500000 norm=false", fams["ccn-no-norm"].desc)
	assert.Equal(t, 5, fams["ccn"].cands)
	assert.Equal(t, 5, fams["ccn-no-norm"].cands)
	sw, fin, swSteps, finSteps = stageRuns(t, p, 0)
	assert.Equal(t, []int{100, 50}, []int{sw, fin}, "2 variants × 5 α × 2 seeds × 5 games; 2 × 5 seeds × 5 games")
	assert.Equal(t, map[int]int{10_000_000: 100}, swSteps)
	assert.Equal(t, map[int]int{10_000_000: 50}, finSteps)

	capacity := loadStudy(t, "atari-tbptt-capacity")
	p, err = capacity.Plan("medium")
	require.NoError(t, err)
	fams = families(t, p)
	require.Len(t, fams, 8)
	for _, n := range []int{2, 4, 8, 15} {
		assert.Equal(t, fmt.Sprintf("tbptt k=8 H=%d", n), fams[fmt.Sprintf("capacity/H=%d", n)].desc)
		assert.Equal(t, fmt.Sprintf("tbptt k=%d H=8", n), fams[fmt.Sprintf("truncation/k=%d", n)].desc)
	}
	for _, g := range p.Groups {
		require.Len(t, g.Candidates, 1)
		assert.Equal(t, 1e-4, g.Candidates[0].Config.Config().StepSize)
	}
	sw, fin, _, finSteps = stageRuns(t, p, 0)
	assert.Equal(t, []int{0, 70}, []int{sw, fin}, "no check; 8 networks (k = 8, H = 8 twice) × 2 seeds × 5 games")
	assert.Equal(t, map[int]int{10_000_000: 70}, finSteps)
}

// TestAuthorsFloorSharesRuns checks the two files that run CCN with the σ
// floor of the authors' code (docs/atari.md): atari-sigma-floor.yaml beside
// the normalization ablation, atari-authors-floor.yaml beside the main
// comparison. Their other groups are those studies', candidate for
// candidate, so that only ccn-authors-floor's runs are new; that group is
// the study's ccn with ε = √0.001 (the authors' std_cap 0.001 floors the
// variance) tuned over the same step sizes on each game. Teeth: the ccn
// group with one feature more shares nothing.
func TestAuthorsFloorSharesRuns(t *testing.T) {
	stepSizes := func(g Group) []float64 {
		var out []float64
		for _, c := range g.Candidates {
			out = append(out, c.Config.Config().StepSize)
		}
		slices.Sort(out)
		return out
	}
	// atari-main-comparison merges its T-BPTT pairs into one group at this scale.
	merged := func(s string) string { return strings.Replace(s, "tbptt/4:10@", "tbptt@", 1) }
	for _, tt := range []struct {
		file, base string
		features   int
		rename     func(string) string
		ccnAlphas  int // the ccn group's candidates on each game
	}{
		{"atari-sigma-floor", "atari-normalization-ablation", 16, func(s string) string { return s }, 5},
		{"atari-authors-floor", "atari-main-comparison", 15, merged, 6},
	} {
		floor := loadStudy(t, tt.file)
		p, err := floor.Plan("medium")
		require.NoError(t, err)
		for _, env := range games {
			g, ccn := p.Groups[groupIndex(t, p, "ccn-authors-floor@"+env)], p.Groups[groupIndex(t, p, "ccn@"+env)]
			assert.Equal(t, stepSizes(ccn), stepSizes(g), "%s %s: tuned like ccn", tt.file, env)
			for _, c := range g.Candidates {
				rc, base := c.Config.Config(), ccn.Candidates[0].Config.Config()
				assert.InDelta(t, math.Sqrt(0.001), rc.Epsilon, 1e-10, g.Name)
				assert.Equal(t, tt.features, rc.Features, g.Name)
				rc.Epsilon, rc.StepSize, base.StepSize = base.Epsilon, 0, 0
				assert.Equal(t, base, rc, "%s %s: ccn's network but for ε", tt.file, g.Name)
			}
		}
		base := loadStudy(t, tt.base)
		var want []string
		for _, env := range games {
			want = append(want, tt.base+" has no group ccn-authors-floor@"+env)
		}
		assert.ElementsMatch(t, want, unshared(t, floor, base, "medium", "medium", tt.rename),
			"%s: every other candidate is one of %s's", tt.file, tt.base)

		b, err := os.ReadFile("../experiments/configs/" + tt.file + ".yaml")
		require.NoError(t, err)
		from := fmt.Sprintf("{method: ccn, features: %d,", tt.features)
		changed := strings.Replace(string(b), from, fmt.Sprintf("{method: ccn, features: %d,", tt.features+1), 1)
		require.NotEqual(t, string(b), changed)
		bad, err := Parse([]byte(changed))
		require.NoError(t, err)
		assert.Len(t, unshared(t, bad, base, "medium", "medium", tt.rename), 5+5*tt.ccnAlphas,
			"%s: and the ccn group's candidates on each game", tt.file)
	}
}
