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
// stage of the group is not settled.
func (p *Plan) Best(g int, look func(id string) Outcome) (int, bool) {
	scores, settled := p.Rank(g, look)
	if !settled {
		return -1, false
	}
	return scores[0].Candidate, true
}
