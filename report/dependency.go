package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/internal/stats"
	"github.com/ccn-go/ccn/plots"
)

// The dependency-length study (experiments/configs/dependency-length.yaml):
// its groups are named METHOD/isi=MIN-MAX.
const (
	StudyDependency = "dependency-length"

	NameDependency       = "dependency-length"
	NameDependencyCurves = "dependency-length-curves"
)

// isiSeries is the groups of one ISI range of the dependency-length study.
type isiSeries struct {
	trace env.TraceConfig // resolved
	ss    []series
}

// dependencySeries loads every group of the dependency-length study and
// returns them by ISI range (shortest first), each range's groups in plan
// order, and the method prefixes (the group names before "/") in plan order.
func dependencySeries(r *Results, fig string) ([]isiSeries, []string, error) {
	ss, err := loadSeries(r, fig, StudyDependency, nil, func(g Group) string { return methodLabel(g.Config) })
	if err != nil {
		return nil, nil, err
	}
	var byISI []isiSeries
	var methods []string
	for _, s := range ss {
		res, err := s.group.Config.Resolve()
		if err != nil {
			return nil, nil, fmt.Errorf("report: %s group %s: %w", StudyDependency, s.group.Name, err)
		}
		tc := res.Trace()
		if m, _, _ := strings.Cut(s.group.Name, "/"); !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
		i := slices.IndexFunc(byISI, func(b isiSeries) bool { return b.trace == tc })
		if i < 0 {
			byISI = append(byISI, isiSeries{trace: tc})
			i = len(byISI) - 1
		}
		byISI[i].ss = append(byISI[i].ss, s)
	}
	slices.SortFunc(byISI, func(a, b isiSeries) int { return a.trace.ISIMin - b.trace.ISIMin })
	return byISI, methods, nil
}

// isiMid is the x value of an ISI range: its midpoint.
func isiMid(tc env.TraceConfig) float64 { return float64(tc.ISIMin+tc.ISIMax) / 2 }

// normalizedErrors returns the final error of each run of g over the best
// constant prediction's error in the same window (summary.json's
// final_error/return_variance).
func normalizedErrors(fig string, g Group) ([]float64, error) {
	out := make([]float64, len(g.Runs))
	for i, run := range g.Runs {
		if !(run.Summary.ReturnVariance > 0) {
			return nil, missing(fig, "%s/%s group %s: run %s has no positive return_variance (the return is constant over its final window, or the summary predates the field)", g.Study, g.Scale, g.Name, run.ID)
		}
		out[i] = run.Summary.FinalError / run.Summary.ReturnVariance
	}
	return out, nil
}

// DependencyLength draws the dependency-length study's summary: the final
// error over the best constant prediction's,
//
//	e = final_error / return_variance   (per run; mean ± s.e. over the final seeds)
//
// against the midpoint of the ISI range, a line per method; 1 is the best
// constant prediction.
func DependencyLength(r *Results) (Figure, error) {
	const fig = NameDependency
	byISI, methods, err := dependencySeries(r, fig)
	if err != nil {
		return Figure{}, err
	}
	var series []plots.SensitivitySeries
	var parts []string
	for _, m := range methods {
		var s plots.SensitivitySeries
		for _, b := range byISI {
			for _, x := range b.ss {
				if p, _, _ := strings.Cut(x.group.Name, "/"); p != m {
					continue
				}
				e, err := normalizedErrors(fig, x.group)
				if err != nil {
					return Figure{}, err
				}
				mean, se := stats.MeanSE(e)
				if math.IsNaN(se) {
					se = 0
				}
				s.Label, s.Method = x.label, x.method
				s.X = append(s.X, isiMid(b.trace))
				s.Mean = append(s.Mean, mean)
				s.StdErr = append(s.StdErr, se)
				parts = append(parts, fmt.Sprintf("%s at ISI %d-%d: %.3g ± %.2g (%s, selected %s)",
					x.label, b.trace.ISIMin, b.trace.ISIMax, mean, se, x.group.SeedsText(), x.group.Candidate))
			}
		}
		series = append(series, s)
	}
	first := byISI[0].ss[0].group
	p, err := plots.Sensitivity(fmt.Sprintf("Trace patterning: final error against the dependency length\n%s", subtitle(first)),
		"inter-stimulus interval (steps, midpoint of the range)", series, true, plots.Baseline(1))
	if err != nil {
		return Figure{}, err
	}
	p.Y.Label.Text = "final error / best constant's"
	var ranges []string
	for _, b := range byISI {
		ranges = append(ranges, fmt.Sprintf("ISI %d-%d with ITI %d-%d", b.trace.ISIMin, b.trace.ISIMax, b.trace.ITIMin, b.trace.ITIMax))
	}
	return Figure{Name: fig, Drawer: p, Caption: strings.Join(append([]string{
		fmt.Sprintf("Study %s: final error over the best constant prediction's (each run's final_error / return_variance, the variance of the return over the same window), mean ± s.e. over the final seeds, against the ISI; each method tuned at each ISI over the sweep seeds", StudyDependency),
		runText(first),
		strings.Join(ranges, "; "),
		"Dashed grey line: the best constant prediction (1)",
	}, parts...), ". ") + "."}, nil
}

// DependencyCurves draws the learning curves of the dependency-length study,
// one panel per ISI range with the best constant prediction of its stream.
func DependencyCurves(r *Results) (Figure, error) {
	const fig = NameDependencyCurves
	byISI, _, err := dependencySeries(r, fig)
	if err != nil {
		return Figure{}, err
	}
	var panels []*plot.Plot
	var parts []string
	for _, b := range byISI {
		cs, base, err := curvesAndBaseline(b.ss)
		if err != nil {
			return Figure{}, err
		}
		p, err := plots.LearningCurves(fmt.Sprintf("ISI %d-%d, ITI %d-%d", b.trace.ISIMin, b.trace.ISIMax, b.trace.ITIMin, b.trace.ITIMax), cs, base.reference())
		if err != nil {
			return Figure{}, err
		}
		p.Y.Label.Text = errorLabel(b.ss[0].group.Config.Window)
		panels = append(panels, p)
		parts = append(parts, caption(fmt.Sprintf("ISI %d-%d", b.trace.ISIMin, b.trace.ISIMax), b.ss, base.text()))
	}
	rows, cols := 2, len(panels)/2
	if len(panels)%2 != 0 {
		rows, cols = 1, len(panels)
	}
	grid := plots.NewGrid("Trace patterning: learning curves per dependency length\n"+subtitle(byISI[0].ss[0].group), rows, cols, panels...)
	grid.Width, grid.Height = vg.Length(cols)*plots.DefaultWidth, vg.Length(rows)*plots.DefaultHeight
	return Figure{Name: fig, Drawer: grid, Caption: fmt.Sprintf(
		"Study %s: learning curves of each method's configuration selected at each ISI, one panel per ISI range, each with the best constant prediction of its stream. ", StudyDependency) +
		strings.Join(parts, " ")}, nil
}
