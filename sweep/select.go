package sweep

import (
	"math"
	"sort"

	"github.com/ccn-go/ccn/internal/stats"
)

// Score summarizes a candidate's runs over a set of seeds.
type Score struct {
	Candidate int
	Seeds     int     // runs asked for
	Complete  int     // runs with a summary that did not diverge
	Diverged  int     // runs that diverged
	Failed    int     // runs that failed for good
	Pending   int     // runs not yet settled
	Mean      float64 // mean final error over the Complete runs (NaN if none)
	SE        float64 // standard error of that mean (package internal/stats: 0 if n = 1, NaN if none)
	Median    float64 // median final error over the Complete runs (NaN if none)
	// NotLearned counts the Complete runs that never beat the best constant
	// prediction: final_error ≥ return_variance (summaries without a
	// return_variance are not counted).
	NotLearned int
	// Numerics counts the Complete and Diverged runs by the numerics of the
	// build that computed them (experiments.Summary.NumericsID).
	Numerics map[string]int
}

// Mixed reports whether the runs were computed by builds of more than one
// numerics, whose results are not bit-comparable.
func (s Score) Mixed() bool { return len(s.Numerics) > 1 }

// Bad is the number of runs that diverged or failed.
func (s Score) Bad() int { return s.Diverged + s.Failed }

// score summarizes the final errors of tasks' outcomes.
func score(c int, tasks []Task, look func(id string) Outcome) Score {
	s := Score{Candidate: c, Seeds: len(tasks), Numerics: map[string]int{}}
	var errs []float64
	for _, t := range tasks {
		o := look(t.ID)
		switch o.State {
		case Done:
			s.Complete++
			errs = append(errs, o.Summary.FinalError)
			if rv := o.Summary.ReturnVariance; rv > 0 && o.Summary.FinalError >= rv {
				s.NotLearned++
			}
			s.Numerics[o.Summary.NumericsID()]++
		case Diverged:
			s.Diverged++
			s.Numerics[o.Summary.NumericsID()]++
		case Failed:
			s.Failed++
		default:
			s.Pending++
		}
	}
	s.Mean, s.SE = stats.MeanSE(errs)
	s.Median = stats.Median(errs)
	return s
}

// Rank scores every candidate of group g over the sweep seeds and orders them
// best first: candidates without a diverged or failed run by mean final error,
// then the others by their number of bad runs and mean; ties keep grid order.
// settled is false while a sweep run is pending, and the ranking is then
// provisional. A group with one candidate is settled without sweep runs.
func (p *Plan) Rank(g int, look func(id string) Outcome) (scores []Score, settled bool) {
	cands := p.Groups[g].Candidates
	scores = make([]Score, len(cands))
	settled = true
	for c := range cands {
		var ts []Task
		if p.Sweeps(g) {
			for _, s := range p.SweepSeeds {
				ts = append(ts, p.Task(g, c, s))
			}
		}
		scores[c] = score(c, ts, look)
		if scores[c].Pending > 0 {
			settled = false
		}
	}
	sort.SliceStable(scores, func(i, j int) bool { return better(scores[i], scores[j]) })
	return scores, settled
}

// better orders scores for selection.
func better(a, b Score) bool {
	if (a.Bad() > 0) != (b.Bad() > 0) {
		return a.Bad() == 0
	}
	if a.Bad() != b.Bad() {
		return a.Bad() < b.Bad()
	}
	if math.IsNaN(a.Mean) || math.IsNaN(b.Mean) {
		return !math.IsNaN(a.Mean) && math.IsNaN(b.Mean)
	}
	return a.Mean < b.Mean
}

// Best returns the selected candidate of group g, and false while the sweep
// stage of the group (of its family on every environment, when the plan
// selects across environments) is not settled.
func (p *Plan) Best(g int, look func(id string) Outcome) (int, bool) {
	c, settled := p.Select(g, look)
	if !settled {
		return -1, false
	}
	return c, true
}

// Select returns the selected candidate of group g, provisional while
// settled is false: the first of Rank, or, when the plan selects across
// environments, the first of RankAcrossEnvs of the group's family.
func (p *Plan) Select(g int, look func(id string) Outcome) (c int, settled bool) {
	s, settled := p.SelectScore(g, look)
	return s.Candidate, settled
}

// SelectScore is Select with the selected candidate's score over the sweep
// seeds (across environments when the plan selects across them); its Mean
// is NaN while no candidate has one, the selection then being the first
// candidate by default.
func (p *Plan) SelectScore(g int, look func(id string) Outcome) (s Score, settled bool) {
	var scores []Score
	if f := p.Groups[g].Family; p.Selection == AcrossEnvs && f != "" {
		scores, settled = p.RankAcrossEnvs(f, look)
	} else {
		scores, settled = p.Rank(g, look)
	}
	return scores[0], settled
}

// relativeScore summarizes the relative errors final_error/return_variance
// of the complete runs among tasks (a run without a positive
// return_variance counts as having no value), with the run counts of score.
func relativeScore(c int, tasks []Task, look func(id string) Outcome) Score {
	s := score(c, tasks, look)
	var rel []float64
	for _, t := range tasks {
		if o := look(t.ID); o.State == Done && o.Summary.ReturnVariance > 0 {
			rel = append(rel, o.Summary.FinalError/o.Summary.ReturnVariance)
		}
	}
	s.Mean, s.SE = math.NaN(), math.NaN()
	if len(rel) == s.Complete {
		s.Mean, s.SE = stats.MeanSE(rel)
	}
	return s
}

// RankAcrossEnvs scores every candidate of a group family over the sweep
// seeds on every environment it runs on and orders them best first, by the
// rule of Rank. A candidate's score is the mean over the G environments of
// its mean relative error there, the error over the best constant
// prediction's (summary.json's return_variance, of the same run), so that
// no environment dominates by the scale of its returns:
//
//	r_e = mean over the complete runs s on e of final_error_s / return_variance_s
//	score = Σ_e r_e / G        s.e. = √(Σ_e se(r_e)²) / G
//
// Run counts are summed over the environments; the score is NaN if an
// environment has no value (no complete run, or a run without
// return_variance), so such a candidate ranks after those with one. settled
// is false while a sweep run of the family is pending. The family's groups
// have the same candidates (Plan checks it), so the index is the same on
// every environment.
func (p *Plan) RankAcrossEnvs(family string, look func(id string) Outcome) (scores []Score, settled bool) {
	var groups []int
	for g, grp := range p.Groups {
		if grp.Family == family {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		panic("sweep: RankAcrossEnvs of family " + family + ", which the plan does not have")
	}
	n := len(p.Groups[groups[0]].Candidates)
	scores = make([]Score, n)
	settled = true
	for c := range n {
		sum := Score{Candidate: c}
		var mean, se2 float64
		for _, g := range groups {
			var ts []Task
			if p.Sweeps(g) {
				for _, s := range p.SweepSeeds {
					ts = append(ts, p.Task(g, c, s))
				}
			}
			e := relativeScore(c, ts, look)
			sum.Seeds += e.Seeds
			sum.Complete += e.Complete
			sum.Diverged += e.Diverged
			sum.Failed += e.Failed
			sum.Pending += e.Pending
			mean += e.Mean
			se2 += e.SE * e.SE
		}
		G := float64(len(groups))
		sum.Mean, sum.SE = mean/G, math.Sqrt(se2)/G
		if sum.Pending > 0 {
			settled = false
		}
		scores[c] = sum
	}
	sort.SliceStable(scores, func(i, j int) bool { return better(scores[i], scores[j]) })
	return scores, settled
}
