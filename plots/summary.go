package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// FinalLabel is the y-axis label of summary panels.
const FinalLabel = "final error (mean ± s.e. over seeds)"

// Point is one entry of a summary panel: a configuration's final error,
// mean ± standard error over seeds (StdErr 0 for one seed).
type Point struct {
	Label  string // x tick label, e.g. "15:4" or "k = 5"
	Method string // colour key, as in Curve
	Mean   float64
	StdErr float64
	// Low and High, when Interval is set, are the ends of the point's bar in
	// NormalizedErrors (a confidence interval, e.g. a bootstrap's) instead
	// of Mean ± StdErr.
	Low, High float64
	Interval  bool
}

// FinalErrors draws a summary panel: one point with a ±1 s.e. bar per
// entry, at evenly spaced positions labelled with the entries' labels (slanted
// if one is wider than its share of a default-width figure), and the
// reference lines refs. Points take the styles the same entries get as
// curves (in the given order), so a summary beside learning curves matches
// them colour for colour; if sorted, the points are then ordered by mean,
// lowest first.
func FinalErrors(title, xLabel string, points []Point, sorted bool, refs ...Reference) (*plot.Plot, error) {
	if len(points) == 0 {
		return nil, missing(title, "no points")
	}
	methods := make([]string, len(points))
	for i, pt := range points {
		methods[i] = pt.Method
		name := fmt.Sprintf("point %q", pt.Label)
		if err := checkSeries(title, name, "mean", []float64{0}, []float64{pt.Mean}, false); err != nil {
			return nil, err
		}
		if err := checkSeries(title, name, "standard error", []float64{0}, []float64{pt.StdErr}, false); err != nil {
			return nil, err
		}
	}
	styles, err := curveStyles(title, methods)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	if sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case points[a].Mean < points[b].Mean:
				return -1
			case points[a].Mean > points[b].Mean:
				return 1
			}
			return 0
		})
	}
	p := newPlot(title, xLabel, FinalLabel)
	labels := make([]string, len(points))
	for pos, i := range order {
		pt := points[i]
		labels[pos] = pt.Label
		x := float64(pos)
		bar := &plotter.YErrorBars{
			XYs:       plotter.XYs{{X: x, Y: pt.Mean}},
			YErrors:   plotter.YErrors{{Low: pt.StdErr, High: pt.StdErr}},
			LineStyle: draw.LineStyle{Color: styles[i].Color, Width: vg.Points(1.2)},
			CapWidth:  vg.Points(6),
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: pt.Mean}})
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: styles[i].Color, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		p.Add(bar, sc)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(points))-0.5
	slantLongLabels(&p.X, labels)
	if err := addReferences(p, title, refs); err != nil {
		return nil, err
	}
	return p, nil
}

// SensitivitySeries is the final error of one group against the values of a
// swept setting: mean ± s.e. over seeds at each value.
type SensitivitySeries struct {
	Label  string
	Method string
	X      []float64 // setting values, increasing
	Mean   []float64
	StdErr []float64
}

// Sensitivity draws the final error against a swept setting, a line with ±1
// s.e. bars per group, on a log x axis when logX (step sizes), the y labels
// with as many decimals as their spacing needs. Groups of one
// method take distinct colours and line styles as curves do.
func Sensitivity(title, xLabel string, series []SensitivitySeries, logX bool, refs ...Reference) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, missing(title, "no series")
	}
	methods := make([]string, len(series))
	for i, s := range series {
		methods[i] = s.Method
		name := fmt.Sprintf("series %q", s.Label)
		if err := checkSeries(title, name, "values", s.X, s.X, logX); err != nil {
			return nil, err
		}
		if err := checkSeries(title, name, "means", s.X, s.Mean, false); err != nil {
			return nil, err
		}
		if err := checkSeries(title, name, "standard errors", s.X, s.StdErr, false); err != nil {
			return nil, err
		}
	}
	styles, err := curveStyles(title, methods)
	if err != nil {
		return nil, err
	}
	xl := xLabel
	if logX {
		xl += " (log scale)"
	}
	p := newPlot(title, xl, FinalLabel)
	p.Y.Tick.Marker = decimalTicks{}
	if logX {
		p.X.Tick.Marker = log10Ticks{}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		xys := make(plotter.XYs, len(s.X))
		errs := make(plotter.YErrors, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: yOf(s.X[j], logX), Y: s.Mean[j]}
			errs[j].Low, errs[j].High = s.StdErr[j], s.StdErr[j]
			lo, hi = min(lo, xys[j].X), max(hi, xys[j].X)
		}
		l, pts, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width, l.Dashes = styles[i].Color, vg.Points(1.2), styles[i].Dashes
		pts.GlyphStyle = draw.GlyphStyle{Color: styles[i].Color, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
		bars := &plotter.YErrorBars{XYs: xys, YErrors: errs,
			LineStyle: draw.LineStyle{Color: styles[i].Color, Width: vg.Points(1)}, CapWidth: vg.Points(4)}
		p.Add(bars, l, pts)
		p.Legend.Add(s.Label, l, pts)
	}
	if pad := 0.05 * (hi - lo); pad > 0 {
		p.X.Min, p.X.Max = lo-pad, hi+pad
	} else {
		p.X.Min, p.X.Max = lo-0.5, hi+0.5
	}
	if err := addReferences(p, title, refs); err != nil {
		return nil, err
	}
	return p, nil
}

// CurvesAndSummary draws learning curves (left) beside the summary of their
// final errors (right), both with the reference lines refs and on one y
// range: what a reader wants from a study of one method's variants (the k:H
// pairs, the truncation lengths, the CCN ablations). points must list the
// curves' groups in the same order.
func CurvesAndSummary(title string, curves []Curve, summaryTitle, xLabel string, points []Point, refs ...Reference) (*Grid, error) {
	if len(points) != len(curves) {
		return nil, missing(title, "%d summary points for %d curves", len(points), len(curves))
	}
	lp, err := LearningCurves("learning curves", curves, refs...)
	if err != nil {
		return nil, err
	}
	sp, err := FinalErrors(summaryTitle, xLabel, points, false, refs...)
	if err != nil {
		return nil, err
	}
	g := NewGrid(title, 1, 2, lp, sp)
	g.Width, g.Height = 2*DefaultWidth, DefaultHeight
	g.ShareY()
	return g, nil
}

// slantLongLabels slants the tick labels of the nominal axis ax by 30° if
// any label is wider than its share of the axis of a DefaultWidth figure
// (less an inch of margins), so that neighbours do not overlap.
func slantLongLabels(ax *plot.Axis, labels []string) {
	slot := (DefaultWidth - vg.Inch) / vg.Length(len(labels))
	for _, l := range labels {
		if ax.Tick.Label.Width(l) > slot {
			ax.Tick.Label.Rotation = math.Pi / 6
			ax.Tick.Label.XAlign = draw.XRight
			ax.Tick.Label.YAlign = draw.YTop
			return
		}
	}
}
