package sweep

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ccn-go/ccn/experiments"
)

const twoGroups = `
name: two
base: {env: trace-patterning}
groups:
  - name: ccn
    config: {method: ccn, features: 4, features-per-stage: 2, steps-per-stage: 2500000}
    grid:
      step-size: [1.0e-3, 3.0e-4, 1.0e-2]
      epsilon: [0.01, 0.001]
  - name: tbptt
    config: {method: tbptt}
    each:
      - {name: "2:3", truncation: 2, hidden: 3}
      - {truncation: 5, hidden: 2}
    grid:
      step-size: [1.0e-3]
scales:
  small:
    steps: 1000000
    sweep-seeds: "0-1"
    final-seeds: [0, 1, 2, 3]
    set: {window: 100, log-every: 100}
    grid:
      step-size: [1.0e-3, 1.0e-2]
`

func TestParseSeeds(t *testing.T) {
	tests := []struct {
		in   string
		want Seeds
		err  bool
	}{
		{"0-4", Seeds{0, 1, 2, 3, 4}, false},
		{"3", Seeds{3}, false},
		{"0-2, 7", Seeds{0, 1, 2, 7}, false},
		{"4-2", nil, true},
		{"a", nil, true},
		{"", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseSeeds(tt.in)
		if tt.err {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestParseRejects(t *testing.T) {
	valid := "name: s\ngroups: [{name: g, config: {method: ccn}}]\nscales: {x: {steps: 10, final-seeds: 0-1}}\n"
	_, err := Parse([]byte(valid))
	require.NoError(t, err)
	tests := []struct {
		name, yaml, want string
	}{
		{"empty", "", "empty file"},
		{"unknown top key", valid + "seeds: 3\n", "seeds"},
		{"bad name", strings.Replace(valid, "name: s", "name: S x", 1), "name"},
		{"no groups", "name: s\nscales: {x: {steps: 10, final-seeds: 0}}\n", "no groups"},
		{"no scales", "name: s\ngroups: [{name: g}]\n", "no scales"},
		{"unknown config key", strings.Replace(valid, "method: ccn", "method: ccn, rate: 1", 1), `unknown key "rate"`},
		{"seed in config", strings.Replace(valid, "method: ccn", "method: ccn, seed: 1", 1), "seed is set by the scale"},
		{"steps in config", strings.Replace(valid, "method: ccn", "method: ccn, steps: 1", 1), "steps is set by the scale"},
		{"explicit zero", strings.Replace(valid, "method: ccn", "method: ccn, features: 0", 1), "features must be positive"},
		{"zero steps", strings.Replace(valid, "steps: 10", "steps: 0", 1), "steps must be at least 1"},
		{"no final seeds", strings.Replace(valid, ", final-seeds: 0-1", "", 1), "no final-seeds"},
		{"duplicate seeds", strings.Replace(valid, "final-seeds: 0-1", "final-seeds: [1, 1]", 1), "listed twice"},
		{"bad seeds", strings.Replace(valid, "final-seeds: 0-1", "final-seeds: 2-1", 1), "range"},
		{"empty grid list", strings.Replace(valid, "config: {method: ccn}", "config: {method: ccn}, grid: {step-size: []}", 1), "no values"},
		{"unknown grid key", strings.Replace(valid, "config: {method: ccn}", "config: {method: ccn}, grid: {alpha: [1]}", 1), `unknown key "alpha"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.yaml))
		require.Error(t, err, tt.name)
		assert.ErrorIs(t, err, ErrInvalid, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
}

func TestPlanExpands(t *testing.T) {
	s, err := Parse([]byte(twoGroups))
	require.NoError(t, err)
	p, err := s.Plan("small")
	require.NoError(t, err)
	assert.Equal(t, "two", p.Study)
	assert.Equal(t, Seeds{0, 1}, p.SweepSeeds)
	assert.Equal(t, Seeds{0, 1, 2, 3}, p.FinalSeeds)
	require.Len(t, p.Groups, 3)
	assert.Equal(t, []string{"ccn", "tbptt/2:3", "tbptt/hidden=2,truncation=5"},
		[]string{p.Groups[0].Name, p.Groups[1].Name, p.Groups[2].Name})

	ccn := p.Groups[0]
	assert.Equal(t, []string{"epsilon", "step-size"}, ccn.Tuned)
	// The scale's grid replaces the step sizes: 2 epsilons × 2 step sizes,
	// last key fastest.
	var labels []string
	for _, c := range ccn.Candidates {
		labels = append(labels, c.Label)
	}
	assert.Equal(t, []string{"epsilon=0.01 step-size=0.001", "epsilon=0.01 step-size=0.01",
		"epsilon=0.001 step-size=0.001", "epsilon=0.001 step-size=0.01"}, labels)
	c := ccn.Candidates[1].Config.Config()
	assert.Equal(t, 1_000_000, c.Steps)
	assert.Equal(t, 0.01, c.StepSize)
	assert.Equal(t, 0.01, c.Epsilon)
	assert.Equal(t, 4, c.Features)
	assert.Equal(t, 100, c.Window, "scale set applies")
	// 2.5M steps per stage of 10M, scaled to 1M steps: 250,000.
	assert.Equal(t, 250_000, c.StepsPerStage)

	tb := p.Groups[1].Candidates
	require.Len(t, tb, 2, "the scale grid applies to every group tuning step-size")
	assert.Equal(t, 3, tb[0].Config.Config().Hidden)
	assert.Equal(t, 2, tb[0].Config.Config().Truncation)

	assert.True(t, p.Sweeps(0))
	assert.Len(t, p.SweepTasks(0), 4*2)
	final := p.FinalTasks(0, 2)
	require.Len(t, final, 4)
	assert.Equal(t, p.SweepTasks(0)[4], final[0], "a final run with a sweep seed is the sweep run")
	assert.Equal(t, uint64(3), final[3].Config.Config().Seed)

	_, err = s.Plan("paper")
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Contains(t, err.Error(), "small")
}

func TestPlanRejectsInvalidRuns(t *testing.T) {
	tests := []struct {
		name, from, to, want string
	}{
		{"key of another method", "config: {method: tbptt}", "config: {method: tbptt, epsilon: 0.1}", "epsilon"},
		{"unknown method", "config: {method: tbptt}", "config: {method: gru}", "gru"},
		{"repeated candidate", "step-size: [1.0e-3]", "step-size: [1.0e-3, 0.001]", "repeats"},
		{"tuned without sweep seeds", `sweep-seeds: "0-1"`, "sweep-seeds: []", "no sweep-seeds"},
	}
	for _, tt := range tests {
		y := strings.Replace(twoGroups, tt.from, tt.to, 1)
		require.NotEqual(t, twoGroups, y, tt.name)
		if tt.name == "repeated candidate" {
			y = strings.Replace(y, "      step-size: [1.0e-3, 1.0e-2]\n", "", 1)
		}
		s, err := Parse([]byte(y))
		require.NoError(t, err, tt.name)
		_, err = s.Plan("small")
		require.Error(t, err, tt.name)
		assert.ErrorIs(t, err, ErrInvalid, tt.name)
		assert.Contains(t, err.Error(), tt.want, tt.name)
	}
}

// A scale's select fixes a group's tuned settings to one value each (a
// smaller scale running a larger one's selection), or narrows them to a list
// of values for that group alone; the other groups keep the scale's grid.
func TestScaleSelect(t *testing.T) {
	const sel = "    select:\n      ccn: {step-size: 3.0e-4, epsilon: 0.01}\n      tbptt/2:3: {step-size: [1.0e-2, 3.0e-4]}\n"
	s, err := Parse([]byte(twoGroups + sel))
	require.NoError(t, err)
	p, err := s.Plan("small")
	require.NoError(t, err)
	require.Len(t, p.Groups, 3)
	labels := map[string][]string{}
	for _, g := range p.Groups {
		for _, c := range g.Candidates {
			labels[g.Name] = append(labels[g.Name], c.Label)
		}
	}
	assert.Equal(t, map[string][]string{
		"ccn":                         {"epsilon=0.01 step-size=0.0003"},
		"tbptt/2:3":                   {"step-size=0.01", "step-size=0.0003"},
		"tbptt/hidden=2,truncation=5": {"step-size=0.001", "step-size=0.01"},
	}, labels)
	c := p.Groups[0].Candidates[0].Config.Config()
	assert.Equal(t, 3e-4, c.StepSize)
	assert.Equal(t, 0.01, c.Epsilon)
	assert.Equal(t, []string{"epsilon", "step-size"}, p.Groups[0].Tuned, "a selected setting is still reported as tuned")

	for sel, want := range map[string]string{
		"    select: {gru: {step-size: 1.0e-3}}\n":     "select names group gru",
		"    select: {tbptt: {step-size: 1.0e-3}}\n":   "select names group tbptt,",
		"    select: {tbptt/2:3: {epsilon: 0.01}}\n":   "select fixes epsilon, which the group does not tune",
		"    select: {ccn: {features: 8}}\n":           "select fixes features",
		"    select: {ccn: {learning-rate: 1.0e-3}}\n": `unknown key "learning-rate"`,
		"    select: {ccn: {step-size: []}}\n":         "step-size has no values",
		"    select: {ccn: {features: [8, 0]}}\n":      "features must be positive, got 0",
	} {
		s, err := Parse([]byte(twoGroups + sel))
		if err == nil {
			_, err = s.Plan("small")
		}
		require.Error(t, err, sel)
		assert.ErrorIs(t, err, ErrInvalid, sel)
		assert.Contains(t, err.Error(), want, sel)
	}
}

// TestExperimentFiles checks every study file of experiments/configs at its
// three scales: the paper scale uses the paper's protocol (Table 1).
func TestExperimentFiles(t *testing.T) {
	paths, err := filepath.Glob("../experiments/configs/*.yaml")
	require.NoError(t, err)
	studies := map[string]Study{}
	for _, path := range paths {
		s, err := Load(path)
		require.NoError(t, err, path)
		studies[s.Name] = s
		scales := []string{"paper", "quick", "smoke"}
		switch {
		case s.Name == "auto-freezing-atari" || s.Name == "rtu-atari" || s.Name == "atari-sigma-floor" || s.Name == "atari-authors-floor":
			// beyond the paper, at the medium scale only: TestAutoFreezingSharesRuns,
			// TestRTUAtariSharesRuns, TestAuthorsFloorSharesRuns
			scales = []string{"medium"}
		case len(s.Envs) > 0:
			scales = []string{"medium", "paper", "quick", "smoke"} // the Atari files
		}
		assert.Equal(t, scales, s.ScaleNames(), path)
		for _, scale := range s.ScaleNames() {
			p, err := s.Plan(scale)
			require.NoError(t, err, "%s %s", path, scale)
			for g := range p.Groups {
				for _, c := range p.Groups[g].Candidates {
					_, err := c.Config.Config().Resolve()
					require.NoError(t, err, "a planned configuration resolves again")
					if c.Final != nil {
						_, err := c.Final.Config().Resolve()
						require.NoError(t, err, "a planned final configuration resolves again")
					}
				}
			}
		}
		if len(s.Envs) > 0 {
			continue // the Atari protocol: TestAtariExperimentFiles
		}
		if s.Name == "dependency-length" {
			continue // beyond the paper, its own protocol: TestDependencyLengthStudy
		}
		paper := s.Scales["paper"]
		assert.Equal(t, experiments.PaperSteps, paper.Steps, path)
		assert.Equal(t, Seeds{0, 1, 2, 3, 4}, paper.SweepSeeds[:min(5, len(paper.SweepSeeds))], path)
		assert.Len(t, paper.FinalSeeds, 100, path)
	}
	for _, name := range []string{"main-comparison", "compute-matched-tbptt", "truncation-h10",
		"normalization-ablation", "ccn-features-per-stage", "ccn-steps-per-stage"} {
		assert.Contains(t, studies, name)
	}

	// The main comparison tunes the paper's six step sizes (× ε where it applies).
	main, err := studies["main-comparison"].Plan("paper")
	require.NoError(t, err)
	count := map[string]int{}
	for _, g := range main.Groups {
		count[g.Name] = len(g.Candidates)
	}
	assert.Equal(t, map[string]int{"ccn": 12, "columnar": 12, "constructive": 12, "tbptt": 6}, count)

	// The compute-matched pairs of the paper.
	cm, err := studies["compute-matched-tbptt"].Plan("paper")
	require.NoError(t, err)
	var pairs []string
	for _, g := range cm.Groups {
		c := g.Candidates[0].Config.Config()
		pairs = append(pairs, strings.Join([]string{itoa(c.Truncation), itoa(c.Hidden)}, ":"))
	}
	assert.Equal(t, []string{"2:13", "3:10", "5:8", "8:5", "10:5", "15:4", "20:3", "30:2"}, pairs)

	// Steps per stage scale with the run length: 0.5M of 10M is 0.5M/5 at 2M steps.
	sps, err := studies["ccn-steps-per-stage"].Plan("quick")
	require.NoError(t, err)
	q := studies["ccn-steps-per-stage"].Scales["quick"].Steps
	assert.Equal(t, 500_000*q/experiments.PaperSteps, sps.Groups[0].Candidates[0].Config.Config().StepsPerStage)
}

// TestQuickSelection checks that every group a quick scale selects runs the
// paper scale's settled selection, as committed in results/paper, of the same
// method and fixed settings (in any study: the protocol test makes their grids
// equal).
func TestQuickSelection(t *testing.T) {
	f, err := os.Open("../results/paper/selection.csv")
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, rows)
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	type group struct{ study, name string }
	settled := map[group]string{} // the selected candidate's label
	for _, r := range rows[1:] {
		if r[col["scale"]] == "paper" && r[col["settled"]] == "true" {
			settled[group{r[col["study"]], r[col["group"]]}] = r[col["candidate"]]
		}
	}
	plans := configPlans(t)
	selection := map[string]string{} // by tunedOut of the group's configuration
	for _, p := range plans["paper"] {
		for _, g := range p.Groups {
			if label, ok := settled[group{p.Study, g.Name}]; ok && len(g.Tuned) > 0 {
				selection[tunedOut(g.Candidates[0].Config)] = label
			}
		}
	}
	checked := 0
	for _, p := range plans["quick"] {
		s, err := Load(filepath.Join("../experiments/configs", p.Study+".yaml"))
		require.NoError(t, err)
		for _, g := range p.Groups {
			if _, ok := s.Scales["quick"].Select[g.Name]; !ok {
				continue
			}
			require.Len(t, g.Candidates, 1, "%s %s", p.Study, g.Name)
			label, ok := selection[tunedOut(g.Candidates[0].Config)]
			if assert.True(t, ok, "%s %s: the paper sweep has not settled this configuration", p.Study, g.Name) {
				assert.Equal(t, label, g.Candidates[0].Label, "%s %s", p.Study, g.Name)
			}
			checked++
		}
	}
	assert.GreaterOrEqual(t, checked, 23, "main comparison 4, normalization 2, online gradients 3, compute-matched pairs 8, H = 10 4, the authors' setup 2")
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "missing.yaml"))
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = os.Stat("testdata/tiny.yaml")
	require.NoError(t, err)
	s, err := Load("testdata/tiny.yaml")
	require.NoError(t, err)
	assert.Equal(t, "tiny", s.Name)
}
