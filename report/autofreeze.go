package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/plots"
)

// The auto-freezing studies (experiments/configs/auto-freezing.yaml on trace
// patterning, auto-freezing-atari.yaml on a pixel game; docs/stages.md, "The
// comparison"): CCN with fixed steps-per-stage schedules and with
// steps-per-stage auto. Each study draws two figures, named after it: NAME
// (final errors per schedule) and NAME-stages (where the auto runs' stages
// froze).
const (
	StudyAutoFreezing      = "auto-freezing"
	StudyAutoFreezingAtari = "auto-freezing-atari"

	NameAutoFreezing            = StudyAutoFreezing
	NameAutoFreezingStages      = StudyAutoFreezing + "-stages"
	NameAutoFreezingAtari       = StudyAutoFreezingAtari
	NameAutoFreezingAtariStages = StudyAutoFreezingAtari + "-stages"
)

// autoResamples is the number of bootstrap resamples of a schedule's
// interval.
const autoResamples = 10_000

// schedule is one group of an auto-freezing study: a fixed schedule (every
// steps) or the auto one.
type schedule struct {
	s     series
	auto  bool
	every int // steps per stage of a fixed schedule
	label string
}

// autoSchedules loads every group of study, fixed schedules first by their
// steps per stage, then the auto ones in plan order.
func autoSchedules(r *Results, fig, study string) ([]schedule, error) {
	ss, err := loadSeries(r, fig, study, nil, func(g Group) string { return g.Name })
	if err != nil {
		return nil, err
	}
	envs := map[string]bool{}
	for _, s := range ss {
		envs[s.group.Config.Env] = true
	}
	out := make([]schedule, len(ss))
	for i, s := range ss {
		c := s.group.Config
		out[i] = schedule{s: s, auto: c.StepsPerStage == experiments.AutoStepsPerStage, every: c.StepsPerStage}
		out[i].label = "auto"
		if !out[i].auto {
			out[i].label = stepsText(c.StepsPerStage)
		}
		if len(envs) > 1 { // a study over several environments: say which
			out[i].label += " " + c.Env
		}
	}
	slices.SortStableFunc(out, func(a, b schedule) int {
		switch {
		case a.auto != b.auto:
			if a.auto {
				return 1
			}
			return -1
		case a.auto:
			return 0
		}
		return a.every - b.every
	})
	return out, nil
}

// fixedFreezes returns the steps at which a fixed schedule of c freezes its
// stages: stage k (from 1) at k·P, for every stage but the last, before the
// run's end,
//
//	P = steps-per-stage     S = ⌈features / features-per-stage⌉     k = 1, …, S − 1 with k·P < steps
func fixedFreezes(c experiments.RunConfig) []float64 {
	stages := (c.Features + c.FeaturesPerStage - 1) / c.FeaturesPerStage
	var out []float64
	for k := 1; k < stages && k*c.StepsPerStage < c.Steps; k++ {
		out = append(out, float64(k*c.StepsPerStage))
	}
	return out
}

// meanInterval95 returns the mean of x and the 95% percentile bootstrap
// interval of the mean (autoResamples resamples of x with replacement, from
// stats.BootstrapSeed); NaN for the interval of fewer than two values
// (stats.Resamplable).
func meanInterval95(x []float64) (mean, lo, hi float64) {
	if !stats.Resamplable(x) {
		return stats.Mean(x), math.NaN(), math.NaN()
	}
	rng := rand.New(rand.NewPCG(stats.BootstrapSeed, 1))
	reps := make([]float64, autoResamples)
	for i := range reps {
		reps[i] = stats.ResampleMean(rng, x)
	}
	lo, hi = stats.Interval95(reps)
	return stats.Mean(x), lo, hi
}

// AutoFreezing draws the comparison of an auto-freezing study (study is
// StudyAutoFreezing or StudyAutoFreezingAtari): per schedule, the final error
// over the best constant prediction's,
//
//	e = final_error / return_variance   (per run)
//
// its mean over the final seeds and the 95% percentile bootstrap interval of
// that mean, the fixed schedules by steps per stage, then auto; 1 is the best
// constant prediction. Each schedule is its group's configuration selected
// over the sweep seeds.
func AutoFreezing(r *Results, study string) (Figure, error) {
	fig := study
	sch, err := autoSchedules(r, fig, study)
	if err != nil {
		return Figure{}, err
	}
	var points []plots.Point
	var parts []string
	for _, s := range sch {
		e, err := normalizedErrors(fig, s.s.group)
		if err != nil {
			return Figure{}, err
		}
		mean, lo, hi := meanInterval95(e)
		points = append(points, plots.Point{Label: s.label, Method: string(s.s.group.Config.Method), Mean: mean, StdErr: math.NaN(),
			Low: lo, High: hi, Interval: !math.IsNaN(lo) && !math.IsNaN(hi)})
		parts = append(parts, fmt.Sprintf("%s: %s (%s)", s.label, formatInterval("%.4g", mean, lo, hi), groupText(s.s.group.Name, s.s.group)))
	}
	first := sch[0].s.group
	p, err := plots.NormalizedErrors(fmt.Sprintf("%s: CCN stage schedules, final error\n%s, %s", study, subtitle(first), first.Config.Env),
		"steps per stage", "best constant prediction", points)
	if err != nil {
		return Figure{}, err
	}
	p.Y.Label.Text = "final error / best constant's (mean, 95% interval)"
	return Figure{Name: fig, Drawer: p, Caption: strings.Join(append([]string{
		fmt.Sprintf("Study %s: CCN with fixed stage schedules (a new stage every P steps) and with steps-per-stage auto (a stage freezes when the convergence test says so, docs/stages.md) on %s; per schedule, the final error over the best constant prediction's (each run's final_error / return_variance), mean over the final seeds with the 95%% percentile bootstrap interval of the mean (%d resamples); each schedule tuned over the sweep seeds", study, first.Config.Env, autoResamples),
		runText(first),
		"Dashed line: the best constant prediction (1)",
	}, parts...), ". ") + "."}, nil
}

// AutoFreezingStages draws where the stages of an auto-freezing study's auto
// runs froze (summary.json's stages: stage s, from 1, froze at stages[s−1]),
// beside the fixed schedules' freezes: on the left, a point per run and
// stage at (freeze step, stage) and each fixed schedule's freezes as a line;
// on the right, the histogram of the auto stages' lengths,
//
//	L_s = stages[s−1] − stages[s−2]      (stages[−1] = 0)
//
// with the fixed schedules' lengths marked. The last stage, which learns to
// the end, is in neither.
func AutoFreezingStages(r *Results, study string) (Figure, error) {
	fig := study + "-stages"
	sch, err := autoSchedules(r, fig, study)
	if err != nil {
		return Figure{}, err
	}
	var fixed []plots.FixedSchedule
	var runs [][]float64
	var lengths []float64
	var auto []schedule
	for _, s := range sch {
		if !s.auto {
			fixed = append(fixed, plots.FixedSchedule{Label: "fixed " + s.label, Freezes: fixedFreezes(s.s.group.Config)})
			continue
		}
		auto = append(auto, s)
		for _, run := range s.s.group.Runs {
			var xs []float64
			prev := 0
			for _, e := range run.Summary.Stages {
				xs = append(xs, float64(e))
				lengths = append(lengths, float64(e-prev))
				prev = e
			}
			runs = append(runs, xs)
		}
	}
	if len(auto) == 0 {
		return Figure{}, missing(fig, "%s/%s has no group with steps-per-stage auto", study, r.Scale)
	}
	if len(lengths) == 0 {
		return Figure{}, missing(fig, "%s/%s: no auto run froze a stage", study, r.Scale)
	}
	// Per stage, the freeze steps over the runs that froze it.
	var byStage [][]float64
	for _, xs := range runs {
		for s, x := range xs {
			if s == len(byStage) {
				byStage = append(byStage, nil)
			}
			byStage[s] = append(byStage[s], x)
		}
	}
	first := auto[0].s.group
	a, err := first.Config.Resolve()
	if err != nil {
		return Figure{}, fmt.Errorf("report: %s group %s: %w", study, first.Name, err)
	}
	af := a.AutoFreeze()
	left, err := plots.StageFreezes("where each stage froze", runs, fixed)
	if err != nil {
		return Figure{}, err
	}
	bins := min(30, max(5, len(lengths)/3))
	right, err := plots.StageLengths("stage lengths", lengths, bins, fixed)
	if err != nil {
		return Figure{}, err
	}
	grid := plots.NewGrid(fmt.Sprintf("%s: where the auto schedule's stages froze\n%s, %s, %s", study, subtitle(first), first.Config.Env, first.SeedsText()), 1, 2, left, right)
	grid.Width, grid.Height = 2*plots.DefaultWidth, plots.DefaultHeight
	parts := []string{
		fmt.Sprintf("Study %s: where the stages of the auto schedule's final runs froze (summary.json's stages), left: a point per run and stage (spread vertically by run), the fixed schedules' freezes as lines; right: the histogram of the auto stages' lengths (steps from a stage's start to its freeze; the last stage, learning to the end, in neither), the fixed schedules' stage lengths as vertical lines", study),
		runText(first),
		fmt.Sprintf("Auto: stage-min %s, stage-max %s, a measurement every %s steps, threshold %g, decay %g", thousands(af.Min), thousands(af.Max), thousands(af.Window), af.Threshold, af.Decay),
	}
	for _, s := range auto {
		parts = append(parts, groupText(s.s.group.Name, s.s.group))
	}
	for _, f := range fixed {
		parts = append(parts, fmt.Sprintf("%s: %s froze%s", f.Label, countText(len(f.Freezes), "stage"), freezesText(f.Freezes)))
	}
	for s, xs := range byStage {
		lo, hi := slices.Min(xs), slices.Max(xs)
		parts = append(parts, fmt.Sprintf("stage %d froze in %s, median step %s (%s-%s)", s+1, countText(len(xs), "run"), thousands(int(math.Round(stats.Median(xs)))), thousands(int(lo)), thousands(int(hi))))
	}
	parts = append(parts, fmt.Sprintf("Stage lengths: median %s over %d stages", thousands(int(math.Round(stats.Median(lengths)))), len(lengths)))
	return Figure{Name: fig, Drawer: grid, Caption: strings.Join(parts, ". ") + "."}, nil
}

// freezesText lists freeze steps, ", at 500, 1,000, …, 9,500" (the first two
// and the last when there are more than three), "" for none.
func freezesText(xs []float64) string {
	var t []string
	for i, x := range xs {
		if len(xs) > 3 && i >= 2 && i < len(xs)-1 {
			if i == 2 {
				t = append(t, "…")
			}
			continue
		}
		t = append(t, thousands(int(x)))
	}
	if len(t) == 0 {
		return ""
	}
	return ", at " + strings.Join(t, ", ")
}
