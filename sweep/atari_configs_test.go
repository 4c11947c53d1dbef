package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	assert.Equal(t, []string{"ccn@Pong", "columnar@Pong", "constructive@Pong", "tbptt/15:2@Pong",
		"tbptt/8:5@Pong", "tbptt/5:7@Pong", "tbptt/4:10@Pong", "tbptt/2:25@Pong"}, pong)
	assert.Len(t, p.Groups, 6*8, "the five games and the stream")
}
