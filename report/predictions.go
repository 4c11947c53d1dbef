package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/plots"
	"gonum.org/v1/plot"
)

// DefaultPredictionSteps is the number of final steps the predictions figure
// shows (of the experiments.PredictionsKept that a run keeps).
const DefaultPredictionSteps = 1000

// Predictions draws Figure 10 for trace patterning: the predictions of CCN and
// of the best T-BPTT against the true return over the last steps of learning
// (at most steps of them), from the lowest final seed both completed (the same
// seed is the same stream).
func Predictions(r *Results, steps int) (Figure, error) {
	const fig = NamePredictions
	if steps < 1 {
		return Figure{}, missing(fig, "no steps asked for (%d)", steps)
	}
	ss, err := loadSeries(r, fig, StudyMain, []string{GroupCCN, GroupTBPTT}, func(g Group) string { return methodLabel(g.Config) })
	if err != nil {
		return Figure{}, err
	}
	ccn, tbptt := ss[0].group, ss[1].group
	p, seed, n, err := predictionsPlot(fig, StudyMain, ccn, tbptt, steps, func(seed uint64) string {
		return fmt.Sprintf("Predictions at the end of learning (seed %d)\n%s", seed, subtitle(ccn))
	})
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: fig, Drawer: p, Caption: fmt.Sprintf(
		"Figure 10 (trace patterning): predictions of CCN (%s) and T-BPTT (%s) against the true return over the last %d steps of learning, final seed %d of the main comparison. %s",
		ccn.Candidate, methodLabel(tbptt.Config)+", "+tbptt.Candidate, n, seed, runText(ccn))}, nil
}

// predictionsPlot draws the predictions of the groups ccn and tbptt of study
// against the true return over the last steps of learning, from the lowest
// final seed both completed (the same seed is the same stream), titled
// title(seed); it returns the seed and the number of steps drawn.
func predictionsPlot(fig, study string, ccn, tbptt Group, steps int, title func(uint64) string) (*plot.Plot, uint64, int, error) {
	// The lowest common seed whose two runs kept their predictions (the
	// committed compact results keep them for one seed only).
	var ccnRun, tbpttRun *Run
	common := false
	for i := range ccn.Runs {
		for j := range tbptt.Runs {
			if ccn.Runs[i].Summary.Seed != tbptt.Runs[j].Summary.Seed {
				continue
			}
			common = true
			if (ccnRun == nil || ccn.Runs[i].Summary.Seed < ccnRun.Summary.Seed) && hasPredictions(ccn.Runs[i]) && hasPredictions(tbptt.Runs[j]) {
				ccnRun, tbpttRun = &ccn.Runs[i], &tbptt.Runs[j]
			}
		}
	}
	if ccnRun == nil && common {
		return nil, 0, 0, missing(fig, "%s: no complete final runs of CCN and T-BPTT with a common seed both keep %s", study, experiments.PredictionsFile)
	}
	if ccnRun == nil {
		return nil, 0, 0, missing(fig, "%s: CCN and T-BPTT have no complete final run with a common seed", study)
	}
	t, ccnPred, ret, err := experiments.ReadPredictions(filepath.Join(ccnRun.Dir, experiments.PredictionsFile))
	if err != nil {
		return nil, 0, 0, err
	}
	t2, tbpttPred, ret2, err := experiments.ReadPredictions(filepath.Join(tbpttRun.Dir, experiments.PredictionsFile))
	if err != nil {
		return nil, 0, 0, err
	}
	if len(t) == 0 || len(t2) == 0 {
		return nil, 0, 0, missing(fig, "seed %d: empty %s", ccnRun.Summary.Seed, experiments.PredictionsFile)
	}
	if len(t) != len(t2) || t[0] != t2[0] {
		return nil, 0, 0, missing(fig, "seed %d: CCN and T-BPTT predictions cover different steps (runs of different lengths?)", ccnRun.Summary.Seed)
	}
	for i := range ret {
		if math.Abs(ret[i]-ret2[i]) > 1e-9*(1+math.Abs(ret[i])) {
			return nil, 0, 0, fmt.Errorf("report: seed %d: the true returns of the CCN run %s and the T-BPTT run %s differ at step %v",
				ccnRun.Summary.Seed, ccnRun.ID, tbpttRun.ID, t[i])
		}
	}
	from := max(0, len(t)-steps)
	series := map[string][]float64{"CCN": ccnPred[from:], "T-BPTT": tbpttPred[from:]}
	// Steps counted back from the end of learning read at a glance where
	// absolute steps would need labels like 9.9992M.
	end := t[len(t)-1] + 1
	back := make([]float64, len(t)-from)
	for i := range back {
		back[i] = t[from+i] - end
	}
	p, err := plots.Predictions(title(ccnRun.Summary.Seed), back, series, ret[from:])
	if err != nil {
		return nil, 0, 0, err
	}
	p.X.Label.Text = fmt.Sprintf("steps before the end of learning (step %s)", thousands(int(end)))
	p.X.Max = 0
	return p, ccnRun.Summary.Seed, len(t) - from, nil
}

// hasPredictions reports whether run kept its predictions.csv.
func hasPredictions(run Run) bool {
	_, err := os.Stat(filepath.Join(run.Dir, experiments.PredictionsFile))
	return err == nil
}
