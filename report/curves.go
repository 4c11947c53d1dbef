package report

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/plots"
)

// series is one curve of a figure: a group of a study with its legend text
// and colour key.
type series struct {
	group  Group
	label  string
	method string
}

// loadSeries reads the groups of study named by names (all of the study's
// groups, in plan order, if names is nil), labelled by label. Every group must
// have complete final runs.
func loadSeries(r *Results, fig, study string, names []string, label func(Group) string) ([]series, error) {
	all, err := r.GroupNames(fig, study)
	if err != nil {
		return nil, err
	}
	if names == nil {
		names = all
	}
	var out []series
	var missingGroups []string
	for _, n := range names {
		g, err := r.Group(fig, study, n)
		if err != nil {
			var m *plots.MissingError
			if errors.As(err, &m) {
				missingGroups = append(missingGroups, m.What)
				continue
			}
			return nil, err
		}
		out = append(out, series{group: g, label: label(g), method: string(g.Config.Method)})
	}
	if n := len(missingGroups); n > 2 {
		missingGroups = append(missingGroups[:2], fmt.Sprintf("and %d more groups", n-2))
	}
	if len(missingGroups) > 0 {
		return nil, missing(fig, "%s", strings.Join(missingGroups, "; "))
	}
	return out, nil
}

// curves returns the learning curves of ss.
func curves(ss []series) ([]plots.Curve, error) {
	cs := make([]plots.Curve, len(ss))
	for i, s := range ss {
		c, err := s.group.Curve(s.label, s.method)
		if err != nil {
			return nil, err
		}
		cs[i] = c
	}
	return cs, nil
}

// curvesAndBaseline returns the learning curves of ss and the best constant
// prediction of their runs (the groups of one figure share their stream).
func curvesAndBaseline(ss []series) ([]plots.Curve, Baseline, error) {
	cs, err := curves(ss)
	if err != nil {
		return nil, Baseline{}, err
	}
	base, err := baseline(ss[0].group)
	if err != nil {
		return nil, Baseline{}, err
	}
	return cs, base, nil
}

// caption joins a figure's description, the runs' description and one entry
// per curve.
func caption(what string, ss []series, extra ...string) string {
	parts := []string{what, runText(ss[0].group) + "; mean ± standard error over the final seeds of each selected configuration"}
	for _, s := range ss {
		parts = append(parts, groupText(s.label, s.group))
	}
	parts = append(parts, extra...)
	return strings.Join(parts, ". ") + "."
}

// LearningCurves draws Figure 4: the learning curves of CCN, Columnar,
// Constructive and the best T-BPTT on trace patterning.
func LearningCurves(r *Results) (Figure, error) {
	const fig = NameLearningCurves
	ss, err := loadSeries(r, fig, StudyMain, []string{GroupCCN, GroupColumnar, GroupConstructive, GroupTBPTT},
		func(g Group) string { return methodLabel(g.Config) })
	if err != nil {
		return Figure{}, err
	}
	cs, base, err := curvesAndBaseline(ss)
	if err != nil {
		return Figure{}, err
	}
	p, err := plots.LearningCurves("Trace patterning\n"+subtitle(ss[0].group), cs, base.reference())
	if err != nil {
		return Figure{}, err
	}
	p.Y.Label.Text = errorLabel(ss[0].group.Config.Window)
	return Figure{Name: fig, Drawer: p, Caption: caption(
		"Figure 4: trace patterning learning curves of CCN, Columnar, Constructive and the best T-BPTT, each with its best configuration over the sweep seeds", ss, base.text())}, nil
}

// ComputeMatched draws Figure 5: the compute-matched T-BPTT pairs k:H, with
// CCN's final error (main comparison) as a dotted line.
func ComputeMatched(r *Results) (Figure, error) {
	const fig = NameComputeMatched
	ss, err := loadSeries(r, fig, StudyComputeMatch, nil, func(g Group) string {
		return fmt.Sprintf("%d:%d", g.Config.Truncation, g.Config.Hidden)
	})
	if err != nil {
		return Figure{}, err
	}
	return withCCN(r, fig, "T-BPTT with matched compute (k:H)", "final error per k:H", "k:H", ss,
		"Figure 5: T-BPTT with truncation k and H hidden units (k:H) paired to use about the same computation per step, each with its best step size")
}

// TruncationH10 draws Figure 6: LSTMs with 10 hidden units and growing
// truncation, with CCN's final error as a dotted line.
func TruncationH10(r *Results) (Figure, error) {
	const fig = NameTruncationH10
	ss, err := loadSeries(r, fig, StudyTruncationH10, nil, func(g Group) string {
		return fmt.Sprintf("k = %d", g.Config.Truncation)
	})
	if err != nil {
		return Figure{}, err
	}
	return withCCN(r, fig, "T-BPTT with H = 10 and growing truncation k", "final error per truncation k", "truncation k", ss,
		"Figure 6: LSTMs with 10 hidden units trained by T-BPTT with truncation k, each with its best step size; cost per step grows with k + 1")
}

// withCCN draws the learning curves of ss beside the summary of their final
// errors (one point per group, in the same order), with CCN's final error from
// the main comparison and the best constant prediction as labelled reference
// lines, both panels on one y range.
func withCCN(r *Results, fig, title, summaryTitle, xLabel string, ss []series, what string) (Figure, error) {
	ref, ccn, err := ccnReference(r, fig)
	if err != nil {
		return Figure{}, err
	}
	cs, base, err := curvesAndBaseline(ss)
	if err != nil {
		return Figure{}, err
	}
	g, err := plots.CurvesAndSummary(title+"\n"+subtitle(ss[0].group), cs, summaryTitle, xLabel, points(ss),
		base.reference(), plots.MethodReference("CCN final error", ref))
	if err != nil {
		return Figure{}, err
	}
	g.Panels[0].Y.Label.Text = errorLabel(ss[0].group.Config.Window)
	return Figure{Name: fig, Drawer: g, Caption: caption(what, ss, fmt.Sprintf(
		"Left: learning curves; right: the final error of each (mean ± s.e. over its final seeds). "+
			"Dotted black line: CCN's final error %.4g, the mean over %s of the main comparison (%s) at the end of learning",
		ref, ccn.SeedsText(), ccn.Candidate), base.text())}, nil
}

// points returns the summary points of ss: each group's final error, mean ±
// s.e. over its complete final runs.
func points(ss []series) []plots.Point {
	pts := make([]plots.Point, len(ss))
	for i, s := range ss {
		m, se := stats.MeanSE(s.group.FinalErrors())
		pts[i] = plots.Point{Label: s.label, Method: s.method, Mean: m, StdErr: se}
	}
	return pts
}

// Normalization draws Figure 12: the best CCN against the best CCN without
// online feature normalization.
func Normalization(r *Results) (Figure, error) {
	const fig = NameNormalization
	ss, err := loadSeries(r, fig, StudyNormalization, []string{GroupCCN, GroupCCNNoNorm}, func(g Group) string {
		if g.Config.NoNorm {
			return "CCN without normalization"
		}
		return "CCN with normalization"
	})
	if err != nil {
		return Figure{}, err
	}
	cs, base, err := curvesAndBaseline(ss)
	if err != nil {
		return Figure{}, err
	}
	p, err := plots.LearningCurves("Online feature normalization\n"+subtitle(ss[0].group), cs, base.reference())
	if err != nil {
		return Figure{}, err
	}
	p.Y.Label.Text = errorLabel(ss[0].group.Config.Window)
	return Figure{Name: fig, Drawer: p, Caption: caption(
		"Figure 12: CCN with and without online feature normalization, each tuned independently", ss, base.text())}, nil
}

// Ablations draws Figure 14: CCN with 1 to 6 features per stage (left) and
// with stages of different lengths (right).
func Ablations(r *Results) (Figure, error) {
	const fig = NameAblations
	left, err := loadSeries(r, fig, StudyFeatures, nil, func(g Group) string {
		if g.Config.FeaturesPerStage == 1 {
			return "1 feature per stage"
		}
		return fmt.Sprintf("%d features per stage", g.Config.FeaturesPerStage)
	})
	if err != nil {
		return Figure{}, err
	}
	right, err := loadSeries(r, fig, StudySteps, nil, func(g Group) string {
		return fmt.Sprintf("a stage every %s steps", stepsText(g.Config.StepsPerStage))
	})
	if err != nil {
		return Figure{}, err
	}
	lc, err := curves(left)
	if err != nil {
		return Figure{}, err
	}
	rc, err := curves(right)
	if err != nil {
		return Figure{}, err
	}
	leftCfg, rightCfg := left[0].group.Config, right[0].group.Config
	base, err := baseline(left[0].group)
	if err != nil {
		return Figure{}, err
	}
	ref := base.reference()
	lp, err := plots.LearningCurves(fmt.Sprintf("features per stage (a stage every %s steps)", stepsText(leftCfg.StepsPerStage)), lc, ref)
	if err != nil {
		return Figure{}, err
	}
	ls, err := plots.FinalErrors("final error per features per stage", "features per stage", ablationPoints(left, func(c experiments.RunConfig) string {
		return fmt.Sprint(c.FeaturesPerStage)
	}), false, ref)
	if err != nil {
		return Figure{}, err
	}
	rp, err := plots.LearningCurves(fmt.Sprintf("steps per stage (%d features per stage)", rightCfg.FeaturesPerStage), rc, ref)
	if err != nil {
		return Figure{}, err
	}
	rs, err := plots.FinalErrors("final error per steps per stage", "steps per stage", ablationPoints(right, func(c experiments.RunConfig) string {
		return stepsText(c.StepsPerStage)
	}), false, ref)
	if err != nil {
		return Figure{}, err
	}
	lp.Y.Label.Text = errorLabel(leftCfg.Window)
	rp.Y.Label.Text = errorLabel(rightCfg.Window)
	grid := plots.NewGrid("CCN: features per stage and steps per stage\n"+subtitle(left[0].group), 2, 2, lp, ls, rp, rs)
	grid.Width, grid.Height = 2*plots.DefaultWidth, 2*plots.DefaultHeight
	grid.ShareY()
	return Figure{Name: fig, Drawer: grid, Caption: strings.Join([]string{
		caption(fmt.Sprintf("Figure 14 (left): CCN with 1 to 6 features per stage, a new stage every %s steps, step size %g for every curve",
			stepsText(leftCfg.StepsPerStage), leftCfg.StepSize), left),
		caption(fmt.Sprintf("Figure 14 (right): CCN with %d features per stage and a new stage every %s steps (the paper's 0.5M to 5M scaled by steps/%s)",
			rightCfg.FeaturesPerStage, stepsRange(right), stepsText(experiments.PaperSteps)), right),
		"Right column: the final error of each curve (mean ± s.e. over its final seeds); all four panels share one y range. " + base.text() + ".",
	}, " ")}, nil
}

// ablationPoints returns the summary points of ss labelled by label of each
// group's configuration.
func ablationPoints(ss []series, label func(experiments.RunConfig) string) []plots.Point {
	pts := points(ss)
	for i, s := range ss {
		pts[i].Label = label(s.group.Config)
	}
	return pts
}

// stepsRange lists the steps per stage of ss: "20k, 40k, 100k".
func stepsRange(ss []series) string {
	var parts []string
	for _, s := range ss {
		parts = append(parts, stepsText(s.group.Config.StepsPerStage))
	}
	return strings.Join(parts, ", ")
}
