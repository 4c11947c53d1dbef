package report

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/sweep"
)

// Names of the generated blocks of docs/atari.md (ReplaceGenerated, Blocks).
const (
	AtariClaimsBlock      = "atari-claims"
	AtariSensitivityBlock = "atari-sensitivity"
)

// AtariClaimsScale is the scale the Atari claims tables read: the paper's
// Atari claims on one machine (docs/running-at-scale.md, "The medium scale").
const AtariClaimsScale = "medium"

// Bootstrap settings of the across-games claims (the per-game intervals are
// those of sweep.Normalize).
const (
	atariReplicates = sweep.BootstrapReplicates
	atariSeed       = 13 // the paper's Figure 13, any fixed seed
)

// atariGroup is the final runs of one selected group of an Atari study at
// one scale: their final errors, their errors over the best constant's
// (return_variance) and their bursts.
type atariGroup struct {
	sel      sweep.Selected
	family   string
	env      string
	errs     []float64 // complete final runs, in seed order
	rel      []float64 // final_error / return_variance of the same runs (NaN without a variance)
	bursts   int       // curve points above return_variance after the first below it, over the runs
	burstRun int       // runs with a burst
}

// atariData is the Atari studies' selected groups at one scale.
type atariData struct {
	res    *sweep.Results
	scale  string
	groups map[[3]string]*atariGroup // study, family, env
	norm   map[[3]string]sweep.Normalized
	plans  map[string]*sweep.Plan
}

// scored reports whether the candidate s selects has a score over the sweep
// seeds, rather than being first only because no candidate has one yet.
func (d *atariData) scored(s sweep.Selected) bool {
	score, _ := s.Plan.SelectScore(s.Group, d.res.Outcome)
	return !math.IsNaN(score.Mean)
}

func newAtariData(res *sweep.Results, scale string) (*atariData, error) {
	d := &atariData{res: res, scale: scale, groups: map[[3]string]*atariGroup{},
		norm: map[[3]string]sweep.Normalized{}, plans: map[string]*sweep.Plan{}}
	for _, s := range res.Selection() {
		p, g := s.Plan, s.Plan.Groups[s.Group]
		if p.Scale != scale || g.Env == "" || !isAtariStudy(p.Study) {
			continue
		}
		d.plans[p.Study] = p
		ag := &atariGroup{sel: s, family: g.Family, env: g.Env}
		for _, t := range p.FinalTasks(s.Group, s.Candidate) {
			o := res.Outcome(t.ID)
			if o.State != sweep.Done {
				continue
			}
			ag.errs = append(ag.errs, o.Summary.FinalError)
			rv := o.Summary.ReturnVariance
			r := math.NaN()
			if rv > 0 {
				r = o.Summary.FinalError / rv
			}
			ag.rel = append(ag.rel, r)
			n, err := burstCount(filepath.Join(sweep.RunDir(res.Dir(), t.ID), experiments.CurveFile), rv)
			if err != nil {
				return nil, err
			}
			ag.bursts += n
			if n > 0 {
				ag.burstRun++
			}
		}
		d.groups[[3]string{p.Study, g.Family, g.Env}] = ag
	}
	for _, n := range res.Normalize() {
		if n.Scale == scale && isAtariStudy(n.Study) {
			d.norm[[3]string{n.Study, n.Family, n.Env}] = n
		}
	}
	return d, nil
}

func isAtariStudy(s string) bool {
	return s == StudyAtariMain || s == StudyAtariNormalization || s == StudyAtariCapacity
}

// burstCount returns the number of a run's curve points (each the error over
// the window before it) above the best constant's error rv after the first
// point below it: the error bursts of a run that had learned something. A
// run without a positive rv has none; a run without a curve file has none.
func burstCount(path string, rv float64) (int, error) {
	if !(rv > 0) {
		return 0, nil
	}
	_, errs, err := experiments.ReadCurve(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n, below := 0, false
	for _, e := range errs {
		switch {
		case e < rv:
			below = true
		case below && e > rv:
			n++
		}
	}
	return n, nil
}

// envs returns the games of study in plan order, families its group
// families in plan order.
func (d *atariData) envs(study string) (envs, families []string) {
	p := d.plans[study]
	if p == nil {
		return nil, nil
	}
	for _, g := range p.Groups {
		if !slices.Contains(envs, g.Env) {
			envs = append(envs, g.Env)
		}
		if !slices.Contains(families, g.Family) {
			families = append(families, g.Family)
		}
	}
	return envs, families
}

// referenceErrs returns the final errors of the reference of a normalized
// row (the selected T-BPTT on its game), nil if it has none.
func (d *atariData) referenceErrs(n sweep.Normalized) []float64 {
	study, group, ok := strings.Cut(n.Reference, "/")
	if !ok {
		return nil
	}
	_, env, _ := strings.Cut(group, "@")
	family := strings.TrimSuffix(group, "@"+env)
	if g := d.groups[[3]string{study, family, env}]; g != nil {
		return g.errs
	}
	return nil
}

// acrossGames returns v = (1/G) Σ_g f(m_g) over the G games of samples, where
// m_g are the means of the samples of game g (samples[g][i], each nonempty),
// and a 95% bootstrap interval: each replicate resamples every sample of
// every game independently with replacement and recomputes v. The interval
// is NaN unless every sample holds two values or more (stats.Resamplable).
func acrossGames(rng *rand.Rand, samples [][][]float64, f func(m []float64) float64) (v, lo, hi float64) {
	if len(samples) == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	G := float64(len(samples))
	m := make([]float64, len(samples[0]))
	resamplable := true
	for _, s := range samples {
		for i, x := range s {
			m[i] = stats.Mean(x)
		}
		v += f(m) / G
		resamplable = resamplable && stats.Resamplable(s...)
	}
	if !resamplable {
		return v, math.NaN(), math.NaN()
	}
	reps := make([]float64, atariReplicates)
	for b := range reps {
		for _, s := range samples {
			for i, x := range s {
				m[i] = stats.ResampleMean(rng, x)
			}
			reps[b] += f(m) / G
		}
	}
	lo, hi = stats.Interval95(reps)
	return v, lo, hi
}

// atariRNG returns the random numbers of one claim's bootstrap.
func atariRNG(id string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(id))
	return rand.New(rand.NewPCG(atariSeed, h.Sum64()))
}

// WriteAtariClaims writes the Atari claims tables of a results directory at
// AtariClaimsScale as Markdown (WriteAtariClaimsAt).
func WriteAtariClaims(w io.Writer, res *sweep.Results) error {
	return WriteAtariClaimsAt(w, res, AtariClaimsScale)
}

// WriteAtariClaimsAt writes the Atari claims tables of the results at scale:
// the selected configuration of each group of the Atari studies; per group
// and game (and averaged over games) the final runs, their median error,
// the error over the best constant's and over the selected T-BPTT's on the
// same game (sweep.Normalize: mean with a 95% bootstrap interval that
// resamples both methods' seeds), and error bursts; then per claim of the
// paper's §5 its measure with a 95% bootstrap interval and a verdict. Every
// number comes from the results; nothing is typed by hand.
func WriteAtariClaimsAt(w io.Writer, res *sweep.Results, scale string) error {
	d, err := newAtariData(res, scale)
	if err != nil {
		return err
	}
	if d.plans[StudyAtariMain] == nil {
		return fmt.Errorf("report: %s holds no plan of %s at scale %s", res.Dir(), StudyAtariMain, scale)
	}
	var b strings.Builder
	fmt.Fprintf(&b, atariPreface, d.runText(StudyAtariMain), d.runText(StudyAtariNormalization))
	b.WriteString("\n| study | group | selected | settled |\n|---|---|---|---|\n")
	for _, study := range []string{StudyAtariMain, StudyAtariNormalization, StudyAtariCapacity} {
		envs, families := d.envs(study)
		for _, f := range families {
			g := d.groups[[3]string{study, f, envs[0]}]
			if g == nil {
				continue
			}
			s := g.sel
			settled := "yes"
			label := s.Plan.Groups[s.Group].Candidates[s.Candidate].Label
			if !s.Settled {
				settled = "**no** (sweep running: provisional)"
				if !d.scored(s) {
					label = "none yet (no candidate has a complete check run on every game)"
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", study, f, label, settled)
		}
	}
	b.WriteString(atariTableHead)
	for _, study := range []string{StudyAtariMain, StudyAtariNormalization} {
		envs, families := d.envs(study)
		for _, f := range families {
			for _, e := range append(slices.Clone(envs), sweep.MeanEnv) {
				b.WriteString(d.row(study, f, e, envs))
			}
		}
	}
	b.WriteString(atariClaimsHead)
	for _, c := range d.claims() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.id, c.paper, c.measure, c.verdict)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

const atariPreface = `Final error: the mean squared return error over the error window at the end of each final
run (main comparison: %s; normalization ablation: %s), over the final seeds of the configuration
selected for the method on every game (one configuration per method, the lowest mean over games of
error / best constant's over the sweep seeds). Selected and settled (a group whose sweep stage is
still running has a provisional selection):
`

// runText says a study's final runs' length, error window, curve interval
// and final seeds.
func (d *atariData) runText(study string) string {
	p := d.plans[study]
	if p == nil {
		return "not run"
	}
	cfg := p.FinalConfig(0, 0).Config()
	return fmt.Sprintf("%s steps, window %s, a curve point every %s steps, final seeds %s",
		thousands(cfg.Steps), thousands(cfg.Window), thousands(cfg.LogEvery), seedRanges(p.FinalSeeds))
}

const atariTableHead = `
n: complete final runs (of the final seeds; diverged runs have no final error and are counted
apart). Error / best constant: final_error / return_variance, the best constant prediction's error
over the same window (below 1: learned something). Error / T-BPTT: the error over the mean final
error of the selected T-BPTT on the same game (T-BPTT = 1; normalized.csv). Each: median over the
runs; mean with a 95% bootstrap interval (2,000 resamples of both methods' final seeds); the mean
row averages the games. Bursts: curve points (each the error over the window before it) above
the best constant's error after the run's first point below it, summed over the runs (runs with
one).

| study | group | game | n | diverged | median error | error / best constant: median; mean [95% CI] | error / T-BPTT: median; mean [95% CI] | bursts (runs) |
|---|---|---|---|---|---|---|---|---|
`

const atariClaimsHead = `
Claims of the paper's §5, each a measure with a 95% bootstrap interval (2,000 replicates, each
resampling every group's final seeds on every game independently, fixed seed). A claim **holds**
when the interval lies on the claimed side, **holds as a trend** when only the estimate does, and
**fails** otherwise (the interval on the other side: fails clearly); A1 holds when CCN's interval
lies below 1 on more than half of the games, as a trend when its estimate does. A verdict is
**provisional** while a group it reads has final runs pending or a selection not yet settled (it
says which): it may still change.

| # | the paper | measure [95% CI] | verdict |
|---|---|---|---|
`

// row formats the table row of family f of study on game e (or the mean
// over envs for sweep.MeanEnv).
func (d *atariData) row(study, f, e string, envs []string) string {
	n := d.norm[[3]string{study, f, e}]
	var errs, rel, normed []float64
	bursts, burstRuns, diverged := 0, 0, 0
	for _, env := range envs {
		if e != sweep.MeanEnv && env != e {
			continue
		}
		g := d.groups[[3]string{study, f, env}]
		if g == nil {
			continue
		}
		errs = append(errs, g.errs...)
		rel = append(rel, g.rel...)
		bursts += g.bursts
		burstRuns += g.burstRun
		diverged += g.sel.Final.Diverged
		if ref := d.referenceErrs(d.norm[[3]string{study, f, env}]); len(ref) > 0 {
			for _, x := range g.errs {
				normed = append(normed, x/stats.Mean(ref))
			}
		}
	}
	median := func(xs []float64) string {
		if e == sweep.MeanEnv || len(xs) == 0 || slices.ContainsFunc(xs, math.IsNaN) {
			return "—"
		}
		return num(stats.Median(xs))
	}
	return fmt.Sprintf("| %s | %s | %s | %d | %d | %s | %s; %s | %s; %s | %d (%d) |\n", study, f, e, len(errs), diverged,
		median(errs), median(rel), interval(n.Relative, n.RelativeLow, n.RelativeHigh),
		median(normed), interval(n.Mean, n.Low, n.High), bursts, burstRuns)
}

// interval formats a mean and its interval to three digits (formatInterval).
func interval(m, lo, hi float64) string { return formatInterval("%.3g", m, lo, hi) }

// formatInterval formats a value and its interval with verb, "m [lo, hi]";
// "—" without a value, and a value without an interval (a sample of one run:
// stats.Resamplable) says so.
func formatInterval(verb string, m, lo, hi float64) string {
	switch {
	case math.IsNaN(m):
		return "—"
	case math.IsNaN(lo) || math.IsNaN(hi):
		return fmt.Sprintf(verb+" [no interval: one run]", m)
	}
	return fmt.Sprintf(verb+" ["+verb+", "+verb+"]", m, lo, hi)
}

// atariClaim is one row of the claims table.
type atariClaim struct {
	id, paper, measure, verdict string
}

// side says on which side of the claimed bound the estimate and its interval
// lie: below says the paper claims a value below bound.
func side(v, lo, hi, bound float64, below bool) string {
	if !below {
		v, lo, hi, bound = -v, -hi, -lo, -bound
	}
	switch {
	case math.IsNaN(v):
		return "no runs"
	case hi < bound:
		return "**holds**"
	case v < bound:
		return "**holds as a trend**"
	case lo > bound:
		return "**fails** clearly"
	}
	return "**fails**"
}

// unfinished returns the final runs still pending in the groups of study
// whose family keep accepts, over every game, and whether any of those
// groups' selections is still provisional: what a claim's verdict waits for.
func (d *atariData) unfinished(study string, keep func(family string) bool) (pending int, unsettled bool) {
	envs, families := d.envs(study)
	for _, f := range families {
		if !keep(f) {
			continue
		}
		for _, e := range envs {
			if g := d.groups[[3]string{study, f, e}]; g != nil {
				pending += g.sel.Final.Pending
				unsettled = unsettled || !g.sel.Settled
			}
		}
	}
	return pending, unsettled
}

// families accepts the named families.
func families(names ...string) func(string) bool {
	return func(f string) bool { return slices.Contains(names, f) }
}

// provisional marks the verdict of a claim whose groups have final runs
// pending or a selection not yet settled: it may still change.
func (d *atariData) provisional(c atariClaim, study string, keep func(family string) bool) atariClaim {
	pending, unsettled := d.unfinished(study, keep)
	if c.verdict == "no runs" || (pending == 0 && !unsettled) {
		return c
	}
	var why []string
	if pending > 0 {
		runs := "runs"
		if pending == 1 {
			runs = "run"
		}
		why = append(why, fmt.Sprintf("%d final %s pending", pending, runs))
	}
	if unsettled {
		why = append(why, "a selection not settled")
	}
	c.verdict += " (provisional: " + strings.Join(why, ", ") + ")"
	return c
}

// claims evaluates the paper's Atari claims, each marked provisional while
// the groups it reads are unfinished.
func (d *atariData) claims() []atariClaim {
	envs, _ := d.envs(StudyAtariMain)
	var out []atariClaim

	// 1: CCN below T-BPTT on most games (per game, normalized.csv's interval).
	var below, trend, above, games int
	var per []string
	for _, e := range envs {
		n, ok := d.norm[[3]string{StudyAtariMain, GroupCCN, e}]
		if !ok || math.IsNaN(n.Mean) {
			continue
		}
		games++
		switch {
		case n.High < 1:
			below++
		case n.Mean < 1:
			trend++
		case n.Low > 1:
			above++
		}
		per = append(per, e+" "+interval(n.Mean, n.Low, n.High))
	}
	c := atariClaim{id: "A1", paper: "Fig. 8: CCN below T-BPTT on most games",
		measure: fmt.Sprintf("CCN / T-BPTT: interval below 1 on %d of %d games, estimate only on %d, interval above 1 on %d (%s)",
			below, games, trend, above, strings.Join(per, "; "))}
	switch {
	case games == 0:
		c.verdict = "no runs"
	case 2*below > games:
		c.verdict = "**holds**"
	case 2*(below+trend) > games:
		c.verdict = "**holds as a trend**"
	default:
		c.verdict = "**fails**"
	}
	out = append(out, d.provisional(c, StudyAtariMain, families(GroupCCN, GroupTBPTT)))

	// 2-4: each column method below T-BPTT on the mean over games.
	for i, f := range []struct{ family, name string }{{GroupCCN, "CCN"}, {GroupColumnar, "Columnar"}, {GroupConstructive, "Constructive"}} {
		n, ok := d.norm[[3]string{StudyAtariMain, f.family, sweep.MeanEnv}]
		if !ok {
			n.Mean = math.NaN()
		}
		c := atariClaim{id: fmt.Sprintf("A%d", i+2), paper: "Fig. 9: " + f.name + " below T-BPTT on average over games",
			measure: fmt.Sprintf("mean over %d games of %s / T-BPTT: %s", n.Games, f.name, interval(n.Mean, n.Low, n.High)),
			verdict: side(n.Mean, n.Low, n.High, 1, true)}
		out = append(out, d.provisional(c, StudyAtariMain, families(f.family, GroupTBPTT)))
	}

	// 5-6: CCN best of the three: the difference of normalized errors
	// (other − CCN)/T-BPTT averaged over games, above 0.
	for i, f := range []struct{ family, name string }{{GroupColumnar, "Columnar"}, {GroupConstructive, "Constructive"}} {
		var samples [][][]float64
		for _, e := range envs {
			a, b := d.groups[[3]string{StudyAtariMain, GroupCCN, e}], d.groups[[3]string{StudyAtariMain, f.family, e}]
			ref := d.referenceErrs(d.norm[[3]string{StudyAtariMain, GroupCCN, e}])
			if a == nil || b == nil || len(a.errs) == 0 || len(b.errs) == 0 || len(ref) == 0 {
				continue
			}
			samples = append(samples, [][]float64{a.errs, b.errs, ref})
		}
		v, lo, hi := acrossGames(atariRNG(fmt.Sprintf("A%d", i+5)), samples, func(m []float64) float64 { return (m[1] - m[0]) / m[2] })
		out = append(out, d.provisional(atariClaim{id: fmt.Sprintf("A%d", i+5), paper: "Fig. 9: CCN best of the three, against " + f.name,
			measure: fmt.Sprintf("mean over %d games of (%s − CCN) / T-BPTT: %s", len(samples), f.name, signedInterval(v, lo, hi)),
			verdict: side(v, lo, hi, 0, false)}, StudyAtariMain, families(GroupCCN, f.family, GroupTBPTT)))
	}

	// 7-8: T-BPTT improves with capacity and truncation: the error at 2 over
	// the error at 15, averaged over games, above 1.
	for i, x := range []struct{ prefix, what string }{{"capacity/H=", "capacity (k = 8: H = 2 against H = 15)"}, {"truncation/k=", "truncation (H = 8: k = 2 against k = 15)"}} {
		curve, _ := d.capacityCurve(x.prefix) // Fig. 11's points
		at2 := capacityValue{v: math.NaN(), low: math.NaN(), high: math.NaN()}
		var each []string // the mean over games of each value's error over the one at 15
		for _, c := range curve {
			if c.family == x.prefix+"2" {
				at2 = c
			}
			if c.games > 0 {
				each = append(each, fmt.Sprintf("%s %.3g", strings.TrimPrefix(c.family, strings.SplitN(x.prefix, "/", 2)[0]+"/"), c.v))
			}
		}
		out = append(out, d.provisional(atariClaim{id: fmt.Sprintf("A%d", i+7), paper: "Fig. 11: T-BPTT improves with " + x.what,
			measure: fmt.Sprintf("mean over %d games of error at 2 / error at 15: %s (each value over 15: %s)", at2.games, interval(at2.v, at2.low, at2.high), strings.Join(each, ", ")),
			verdict: side(at2.v, at2.low, at2.high, 1, false)},
			StudyAtariCapacity, func(f string) bool { return strings.HasPrefix(f, x.prefix) }))
	}

	// 9: normalization helps CCN: without over with, averaged over games.
	nenvs, _ := d.envs(StudyAtariNormalization)
	var samples [][][]float64
	divWith, divWithout := 0, 0
	for _, e := range nenvs {
		a, b := d.groups[[3]string{StudyAtariNormalization, GroupCCN, e}], d.groups[[3]string{StudyAtariNormalization, GroupCCNNoNorm, e}]
		if a != nil {
			divWith += a.sel.Final.Diverged
		}
		if b != nil {
			divWithout += b.sel.Final.Diverged
		}
		if a == nil || b == nil || len(a.errs) == 0 || len(b.errs) == 0 {
			continue
		}
		samples = append(samples, [][]float64{a.errs, b.errs})
	}
	v, lo, hi := acrossGames(atariRNG("A9"), samples, func(m []float64) float64 { return m[1] / m[0] })
	out = append(out, d.provisional(atariClaim{id: "A9", paper: "Fig. 13: normalization lowers CCN's error",
		measure: fmt.Sprintf("mean over %d games of error without / with normalization: %s; diverged final runs: %d with, %d without",
			len(samples), interval(v, lo, hi), divWith, divWithout),
		verdict: side(v, lo, hi, 1, false)}, StudyAtariNormalization, families(GroupCCN, GroupCCNNoNorm)))
	return out
}

func signedInterval(v, lo, hi float64) string { return formatInterval("%+.3g", v, lo, hi) }

// WriteAtariSensitivity writes the sensitivity of the Atari selection at
// AtariClaimsScale (WriteAtariSensitivityAt).
func WriteAtariSensitivity(w io.Writer, res *sweep.Results) error {
	return WriteAtariSensitivityAt(w, res, AtariClaimsScale)
}

// WriteAtariSensitivityAt writes, for each group family of the Atari studies
// at scale that selects one configuration for every game, per game: the
// candidate the game's own sweep runs rank first (sweep.Plan.Rank, the
// selection a per-game rule would make) and the mean error over the best
// constant's of it and of the candidate selected across games, over the
// sweep seeds on that game. It is the sensitivity of the headline to the
// selection rule, not the headline.
func WriteAtariSensitivityAt(w io.Writer, res *sweep.Results, scale string) error {
	var b strings.Builder
	b.WriteString("| study | group | selected for every game | game | the game's own choice | error / best constant: own choice | selected |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	rows, plans := 0, 0
	for i := range res.Plans {
		p := &res.Plans[i]
		if p.Scale != scale || !isAtariStudy(p.Study) {
			continue
		}
		plans++
		if p.Selection != sweep.AcrossEnvs {
			continue
		}
		var families []string
		for _, g := range p.Groups {
			if !slices.Contains(families, g.Family) {
				families = append(families, g.Family)
			}
		}
		for _, f := range families {
			across, _ := p.RankAcrossEnvs(f, res.Outcome)
			sel := across[0].Candidate
			for g, grp := range p.Groups {
				if grp.Family != f || !p.Sweeps(g) {
					continue
				}
				scores, _ := p.Rank(g, res.Outcome)
				own := scores[0].Candidate
				same := ""
				if own == sel {
					same = " (the same)"
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s%s | %s | %s |\n", p.Study, f, grp.Candidates[sel].Label, grp.Env,
					grp.Candidates[own].Label, same, sweepRelative(p, g, own, res), sweepRelative(p, g, sel, res))
				rows++
			}
		}
	}
	if plans == 0 {
		return fmt.Errorf("report: %s holds no Atari plan at scale %s", res.Dir(), scale)
	}
	if rows == 0 {
		b.Reset()
		fmt.Fprintf(&b, "No group of the Atari studies at scale %s selects one configuration for every game from sweep runs.\n", scale)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sweepRelative formats the mean of final_error/return_variance of the
// complete sweep runs of candidate c of group g, with their count.
func sweepRelative(p *sweep.Plan, g, c int, res *sweep.Results) string {
	var rel []float64
	for _, s := range p.SweepSeeds {
		o := res.Outcome(p.Task(g, c, s).ID)
		if o.State == sweep.Done && o.Summary.ReturnVariance > 0 {
			rel = append(rel, o.Summary.FinalError/o.Summary.ReturnVariance)
		}
	}
	if len(rel) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3g (n = %d)", stats.Mean(rel), len(rel))
}

// AtariPending is the text of the Atari blocks of docs/atari.md while no
// results of AtariClaimsScale are committed.
const AtariPending = "No `medium`-scale results are committed yet: `SCALE=medium scripts/paper-sweep.sh commit WORK`\nwrites this table from `results/medium` (`ccn collect results/medium --markdown docs/atari.md`).\n"
