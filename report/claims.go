package report

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/sweep"
)

// Names of the generated blocks of a Markdown page (ReplaceGenerated,
// Blocks).
const (
	ClaimsBlock       = "claims"
	AuthorsSetupBlock = "authors-setup"
	markerStart       = "<!-- generated:%s:start -->"
	markerEnd         = "<!-- generated:%s:end -->"
)

// ClaimsScale is the scale the claims tables read: the paper's protocol.
const ClaimsScale = "paper"

// Resamples and level of the bootstrap intervals of the claims tables.
const (
	claimResamples = 10_000
	claimLevel     = 0.95
	claimAlpha     = 0.05 // significance level of the verdicts
)

// relation is what a claim says of its two groups.
type relation int

const (
	lower   relation = iota // A below B
	matches                 // A about B
)

// groupRef names a group of a study; Best names instead the group of the
// study with the lowest mean final error (leaving out Except).
type groupRef struct {
	Study, Group string
	Best         bool
	Except       string
}

// claim is one comparison of the paper's trace patterning claims (§4,
// Appendix A): the paper says A is lower than B, or A matches B, in final
// error (or, with AtStep, in the error after AtStep steps; with SD, in the
// spread over seeds).
type claim struct {
	ID, Paper string
	A, B      groupRef
	Rel       relation
	AtStep    int
	SD        bool
}

// claims are the paper's claims on trace patterning, one comparison a row.
var claims = []claim{
	{"1a", "Fig. 4: CCN lowest", groupRef{Study: "main-comparison", Group: "ccn"}, groupRef{Study: "main-comparison", Group: "columnar"}, lower, 0, false},
	{"1b", "Fig. 4: CCN beats the best T-BPTT", groupRef{Study: "main-comparison", Group: "ccn"}, groupRef{Study: "main-comparison", Group: "tbptt"}, lower, 0, false},
	{"1c", "Fig. 4: Columnar beats the best T-BPTT", groupRef{Study: "main-comparison", Group: "columnar"}, groupRef{Study: "main-comparison", Group: "tbptt"}, lower, 0, false},
	{"1d", "Fig. 4: Constructive worst of the column methods", groupRef{Study: "main-comparison", Group: "columnar"}, groupRef{Study: "main-comparison", Group: "constructive"}, lower, 0, false},
	{"1e", "Fig. 4: Constructive matches the best T-BPTT", groupRef{Study: "main-comparison", Group: "constructive"}, groupRef{Study: "main-comparison", Group: "tbptt"}, matches, 0, false},
	{"1f", "Fig. 4, against our best compute-matched T-BPTT: CCN lower", groupRef{Study: "main-comparison", Group: "ccn"}, groupRef{Study: "compute-matched-tbptt", Best: true}, lower, 0, false},
	{"2a", "Fig. 5: 15:4 beats 2:13 (short truncations degrade)", groupRef{Study: "compute-matched-tbptt", Group: "tbptt/15:4"}, groupRef{Study: "compute-matched-tbptt", Group: "tbptt/2:13"}, lower, 0, false},
	{"2b", "Fig. 5: 15:4 is the best pair", groupRef{Study: "compute-matched-tbptt", Group: "tbptt/15:4"}, groupRef{Study: "compute-matched-tbptt", Best: true, Except: "tbptt/15:4"}, lower, 0, false},
	{"3a", "Fig. 6: H = 10 with k = 15 nearly matches CCN", groupRef{Study: "truncation-h10", Group: "tbptt-h10/k=15"}, groupRef{Study: "main-comparison", Group: "ccn"}, matches, 0, false},
	{"3b", "Fig. 6: a longer truncation learns better (k = 15 against k = 1)", groupRef{Study: "truncation-h10", Group: "tbptt-h10/k=15"}, groupRef{Study: "truncation-h10", Group: "tbptt-h10/k=1"}, lower, 0, false},
	{"4a", "Fig. 12: normalization lowers CCN's error", groupRef{Study: "normalization-ablation", Group: "ccn"}, groupRef{Study: "normalization-ablation", Group: "ccn-no-norm"}, lower, 0, false},
	{"4b", "Fig. 12: normalization lowers the variance over seeds", groupRef{Study: "normalization-ablation", Group: "ccn"}, groupRef{Study: "normalization-ablation", Group: "ccn-no-norm"}, lower, 0, true},
	{"5a", "Fig. 14 left: more features per stage is better (2 against 1)", groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=2"}, groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=1"}, lower, 0, false},
	{"5b", "Fig. 14 left: 3 against 2", groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=3"}, groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=2"}, lower, 0, false},
	{"5c", "Fig. 14 left: 4 against 3", groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=4"}, groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=3"}, lower, 0, false},
	{"5d", "Fig. 14 left: 5 against 4", groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=5"}, groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=4"}, lower, 0, false},
	{"5e", "Fig. 14 left: 6 against 5", groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=6"}, groupRef{Study: "ccn-features-per-stage", Group: "ccn/fps=5"}, lower, 0, false},
	{"6a", "Fig. 14 right: a short stage (0.5M steps) ends worse than 2.5M", groupRef{Study: "ccn-steps-per-stage", Group: "ccn/sps=2.5M"}, groupRef{Study: "ccn-steps-per-stage", Group: "ccn/sps=0.5M"}, lower, 0, false},
	{"6b", "Fig. 14 right: a short stage learns faster early (error at 2M steps)", groupRef{Study: "ccn-steps-per-stage", Group: "ccn/sps=0.5M"}, groupRef{Study: "ccn-steps-per-stage", Group: "ccn/sps=2.5M"}, lower, 2_000_000, false},
}

// groupSample is the final runs of one selected group.
type groupSample struct {
	sel        sweep.Selected
	name       string    // study/group
	errs       []float64 // final errors of the complete runs, in seed order
	ids        []string  // their run IDs
	seeds      []uint64  // their seeds
	notLearned int
}

// claimsData is a results directory's selected groups at ClaimsScale.
type claimsData struct {
	res    *sweep.Results
	groups []*groupSample
}

func newClaimsData(res *sweep.Results) *claimsData {
	d := &claimsData{res: res}
	for _, s := range res.Selection() {
		if s.Plan.Scale != ClaimsScale {
			continue
		}
		g := &groupSample{sel: s, name: s.Plan.Study + "/" + s.Plan.Groups[s.Group].Name, notLearned: s.Final.NotLearned}
		for _, t := range s.Plan.FinalTasks(s.Group, s.Candidate) {
			if o := res.Outcome(t.ID); o.State == sweep.Done {
				g.errs = append(g.errs, o.Summary.FinalError)
				g.ids = append(g.ids, t.ID)
				g.seeds = append(g.seeds, t.Seed)
			}
		}
		d.groups = append(d.groups, g)
	}
	return d
}

// find returns the group r names, nil if the results have none.
func (d *claimsData) find(r groupRef) *groupSample {
	var best *groupSample
	for _, g := range d.groups {
		if g.sel.Plan.Study != r.Study {
			continue
		}
		name := g.sel.Plan.Groups[g.sel.Group].Name
		switch {
		case !r.Best && name == r.Group:
			return g
		case r.Best && name != r.Except && len(g.errs) > 0 && (best == nil || stats.Mean(g.errs) < stats.Mean(best.errs)):
			best = g
		}
	}
	return best
}

// at returns the errors of g's complete final runs after step steps (the
// curve point logged there), or the final errors for step 0.
func (d *claimsData) at(g *groupSample, step int) ([]float64, error) {
	if step == 0 {
		return g.errs, nil
	}
	var xs []float64
	for _, id := range g.ids {
		steps, errs, err := experiments.ReadCurve(filepath.Join(sweep.RunDir(d.res.Dir(), id), experiments.CurveFile))
		if err != nil {
			return nil, err
		}
		i := slices.Index(steps, step)
		if i < 0 {
			return nil, fmt.Errorf("report: run %s logs no error at step %d", id, step)
		}
		xs = append(xs, errs[i])
	}
	return xs, nil
}

// WriteClaims writes the claims tables of a results directory as Markdown:
// per group of every study at ClaimsScale the final error (mean ± s.e.,
// median, s.d., runs that never beat the best constant, diverged and failed
// runs, the builds' numerics), then per claim of the paper the two groups'
// medians, the bootstrap intervals of the differences of medians and means
// and the Mann-Whitney U test's p, with a verdict at the 5% level. Every
// number comes from the results; nothing is typed by hand.
func WriteClaims(w io.Writer, res *sweep.Results) error {
	d := newClaimsData(res)
	if len(d.groups) == 0 {
		return fmt.Errorf("report: %s holds no plan at scale %s", res.Dir(), ClaimsScale)
	}
	var b strings.Builder
	b.WriteString(claimsPreface)
	b.WriteString("\n| study | group | selected | n | mean ± s.e. | median | s.d. | never learned | diverged | failed | pending | numerics |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, g := range d.groups {
		s, f := g.sel, g.sel.Final
		label := s.Plan.Groups[s.Group].Candidates[s.Candidate].Label
		if !s.Settled {
			label += " (sweep running)"
		}
		n := sweep.FormatNumerics(s.Numerics)
		if len(s.Numerics) > 1 {
			n = "**mixed** " + n
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %d | %d | %d | %d | %s |\n", s.Plan.Study,
			s.Plan.Groups[s.Group].Name, label, f.Complete, meanSE(f.Mean, f.SE), num(f.Median), num(sd(g.errs)),
			g.notLearned, f.Diverged, f.Failed, f.Pending, n)
	}
	b.WriteString(claimsMethod)
	b.WriteString("\n| # | the paper | A | B | A: median (n) | B: median (n) | B − A: median [95% CI] | B − A: mean [95% CI] | Mann-Whitney p | verdict |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range claims {
		ga, gb := d.find(c.A), d.find(c.B)
		if ga == nil || gb == nil {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | | | | | | no runs |\n", c.ID, c.Paper, refName(c.A, ga), refName(c.B, gb))
			continue
		}
		xa, err := d.at(ga, c.AtStep)
		if err != nil {
			return err
		}
		xb, err := d.at(gb, c.AtStep)
		if err != nil {
			return err
		}
		b.WriteString(claimRow(c, ga, gb, xa, xb))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

const claimsPreface = `Final error: the mean squared return error over the last 100,000 steps of a
10M-step run (paper §4), over the final seeds of each group's selected configuration
(seeds from 100 on; n complete runs). Never learned: complete runs whose final error is at
or above the variance of the return over the same window, the error of the best constant
prediction. Numerics: the builds that computed the group's sweep and final runs
(summary.json); **mixed** marks a group whose selection pools two builds.
The quick scale's final runs are the first 5 or 10 of these final seeds, at the same
configurations: they are a subset of these runs, not a second replication.
`

const claimsMethod = `
Each claim compares two groups' final errors (6b: their errors after 2M steps) without
assuming normality: the difference B − A of the medians and of the means with 95%
percentile bootstrap intervals (10,000 resamples of each group, fixed seed), and the
two-sided Mann-Whitney U test (normal approximation with tie correction). A claim that
A is lower holds when p < 0.05 and A ranks lower; a claim that A matches B holds when
the test finds no difference (p ≥ 0.05), which at these n does not exclude a small one.
4b compares standard deviations (bootstrap interval only). 1f and 2b take the
compute-matched T-BPTT pair of lowest mean final error.
`

// claimRow formats one claim's comparison of the samples xa and xb.
func claimRow(c claim, ga, gb *groupSample, xa, xb []float64) string {
	if c.SD {
		lo, hi := stats.BootstrapCI(xa, xb, sd, claimResamples, claimLevel)
		verdict := "not shown (interval contains 0)"
		switch {
		case lo > 0:
			verdict = "**holds**"
		case hi < 0:
			verdict = "**fails** (A varies more)"
		}
		return fmt.Sprintf("| %s | %s | %s | %s | s.d. %s (%d) | s.d. %s (%d) | s.d.: %s [%s, %s] | | | %s |\n", c.ID, c.Paper,
			ga.name, gb.name, num(sd(xa)), len(xa), num(sd(xb)), len(xb), signed(sd(xb)-sd(xa)), signed(lo), signed(hi), verdict)
	}
	mlo, mhi := stats.BootstrapCI(xa, xb, stats.Median, claimResamples, claimLevel)
	alo, ahi := stats.BootstrapCI(xa, xb, stats.Mean, claimResamples, claimLevel)
	u, p := stats.MannWhitney(xa, xb)
	aLower := u < float64(len(xa)*len(xb))/2
	var verdict string
	switch {
	case math.IsNaN(p):
		verdict = "no test"
	case c.Rel == lower && p < claimAlpha && aLower:
		verdict = "**holds**"
	case c.Rel == lower && p < claimAlpha:
		verdict = "**fails**: A is higher"
	case c.Rel == lower:
		verdict = "not shown (p ≥ 0.05)"
	case p >= claimAlpha:
		verdict = "**holds** (no difference found)"
	case aLower:
		verdict = "**fails**: A is lower"
	default:
		verdict = "**fails**: A is higher"
	}
	return fmt.Sprintf("| %s | %s | %s | %s | %s (%d) | %s (%d) | %s [%s, %s] | %s [%s, %s] | %s | %s |\n", c.ID, c.Paper,
		ga.name, gb.name, num(stats.Median(xa)), len(xa), num(stats.Median(xb)), len(xb),
		signed(stats.Median(xb)-stats.Median(xa)), signed(mlo), signed(mhi),
		signed(stats.Mean(xb)-stats.Mean(xa)), signed(alo), signed(ahi), pValue(p), verdict)
}

func refName(r groupRef, g *groupSample) string {
	if g != nil {
		return g.name
	}
	if r.Best {
		return r.Study + " (best)"
	}
	return r.Study + "/" + r.Group
}

// sd is the sample standard deviation (n − 1), NaN below two values.
func sd(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	_, se := stats.MeanSE(xs)
	return se * math.Sqrt(float64(len(xs)))
}

func num(x float64) string { return fmt.Sprintf("%.3g", x) }

func signed(x float64) string { return fmt.Sprintf("%+.2g", x) }

func meanSE(m, se float64) string { return fmt.Sprintf("%.3g ± %.2g", m, se) }

func pValue(p float64) string {
	if p < 1e-4 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}

// ErrNoMarkers is returned by ReplaceGenerated when a page lacks the markers
// of the block.
var ErrNoMarkers = errors.New("report: page has no generated block markers")

// Generated returns the text between the markers of block name in page:
//
//	<!-- generated:NAME:start -->
//	…
//	<!-- generated:NAME:end -->
func Generated(page, name string) (string, error) {
	start, end := fmt.Sprintf(markerStart, name), fmt.Sprintf(markerEnd, name)
	i, j := strings.Index(page, start), strings.Index(page, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%w: want %s … %s", ErrNoMarkers, start, end)
	}
	return strings.TrimPrefix(page[i+len(start):j], "\n"), nil
}

// ReplaceGenerated returns page with the text between the markers of block
// name replaced by block.
func ReplaceGenerated(page, name, block string) (string, error) {
	start, end := fmt.Sprintf(markerStart, name), fmt.Sprintf(markerEnd, name)
	i, j := strings.Index(page, start), strings.Index(page, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("%w: want %s … %s", ErrNoMarkers, start, end)
	}
	return page[:i+len(start)] + "\n" + block + page[j:], nil
}

// Blocks are the generated blocks of the results pages, by name: each writes
// its Markdown from a results directory (the claims and authors-setup blocks
// of docs/results.md from results/paper, the Atari blocks of docs/atari.md
// from results/medium).
var Blocks = map[string]func(io.Writer, *sweep.Results) error{
	ClaimsBlock:           WriteClaims,
	AuthorsSetupBlock:     WriteAuthorsSetup,
	AtariClaimsBlock:      WriteAtariClaims,
	AtariSensitivityBlock: WriteAtariSensitivity,
}

// WriteAuthorsSetup writes the table of claim 2 against the authors' code:
// T-BPTT 2:13 and 15:4 of study compute-matched-tbptt (ours) on the final
// seeds of study tbptt-authors-setup and on all of its own, the authors'
// setup, and ours with one of the setup's three differences; each cell the
// final error's mean ± s.e. and median over n runs, with the selected step
// size.
func WriteAuthorsSetup(w io.Writer, res *sweep.Results) error {
	d := newClaimsData(res)
	get := func(study, group string) *groupSample { return d.find(groupRef{Study: study, Group: group}) }
	var seeds []uint64
	if g := get("tbptt-authors-setup", "tbptt-authors/2:13"); g != nil {
		seeds = g.seeds
	}
	cell := func(g *groupSample, only []uint64) string {
		if g == nil {
			return "no runs"
		}
		xs := g.errs
		if only != nil {
			xs = nil
			for i, s := range g.seeds {
				if slices.Contains(only, s) {
					xs = append(xs, g.errs[i])
				}
			}
		}
		m, se := stats.MeanSE(xs)
		label := g.sel.Plan.Groups[g.sel.Group].Candidates[g.sel.Candidate].Label
		return fmt.Sprintf("%s, median %s (n = %d; %s)", meanSE(m, se), num(stats.Median(xs)), len(xs), label)
	}
	var b strings.Builder
	b.WriteString("| T-BPTT | 2:13 | 15:4 |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| ours (compute-matched-tbptt), the seeds of the authors' setup (%s) | %s | %s |\n", seedList(seeds),
		cell(get("compute-matched-tbptt", "tbptt/2:13"), seeds), cell(get("compute-matched-tbptt", "tbptt/15:4"), seeds))
	fmt.Fprintf(&b, "| ours (compute-matched-tbptt), every final seed | %s | %s |\n",
		cell(get("compute-matched-tbptt", "tbptt/2:13"), nil), cell(get("compute-matched-tbptt", "tbptt/15:4"), nil))
	fmt.Fprintf(&b, "| the authors' setup | %s | %s |\n",
		cell(get("tbptt-authors-setup", "tbptt-authors/2:13"), nil), cell(get("tbptt-authors-setup", "tbptt-authors/15:4"), nil))
	var one []string
	for _, v := range []string{"fan-in-init", "no-out-bias", "full-output-step"} {
		one = append(one, v+" "+cell(get("tbptt-authors-setup", "tbptt-2:13/"+v), nil))
	}
	fmt.Fprintf(&b, "| ours with one of the three | %s | |\n", strings.Join(one, "; "))
	_, err := io.WriteString(w, b.String())
	return err
}

// seedList writes seeds as ranges: "100-109", "100-104, 107".
func seedList(seeds []uint64) string {
	s := slices.Sorted(slices.Values(seeds))
	var parts []string
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", s[i], s[j]))
		} else {
			parts = append(parts, fmt.Sprint(s[i]))
		}
		i = j + 1
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
