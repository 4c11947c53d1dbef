package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Axis labels of learning curves (paper §4.1: the error is averaged over the
// previous 100,000 steps, L(t−100,000, t) of Equation 1).
const (
	StepsLabel = "steps"
	ErrorLabel = "mean squared return error (previous 100k steps)"
)

// Curve is one learning curve: the mean over Seeds runs of an error measured
// at Steps, with its standard error.
type Curve struct {
	Label  string    // legend text, e.g. "CCN" or "k=5, H=8"
	Method string    // colour key: ccn, columnar, constructive, tbptt, rtrl
	Steps  []float64 // x values
	Mean   []float64 // mean over seeds at each step
	StdErr []float64 // standard error of the mean; nil when Seeds = 1
	Seeds  int       // number of runs averaged, ≥ 1
}

// check reports what is missing in c for figure fig.
func (c Curve) check(fig string) error {
	name := fmt.Sprintf("curve %q", c.Label)
	if c.Seeds < 1 {
		return missing(fig, "%s: no seeds (Seeds = %d)", name, c.Seeds)
	}
	if len(c.Steps) == 0 {
		return missing(fig, "%s: no points", name)
	}
	if err := checkSeries(fig, name, "means", c.Steps, c.Mean, false); err != nil {
		return err
	}
	if c.StdErr == nil {
		if c.Seeds > 1 {
			return missing(fig, "%s: no standard errors for %d seeds", name, c.Seeds)
		}
		return nil
	}
	return checkSeries(fig, name, "standard errors", c.Steps, c.StdErr, false)
}

// LearningCurves draws error against steps, one mean ± s.e. band per curve
// (paper Figure 4; the ablations of Figures 12 and 14 with their own labels),
// with the reference lines refs (Baseline, MethodReference) labelled on the
// panel. The number of seeds goes into the title when every curve has the
// same, otherwise into each legend entry. The step axis starts at 0.
func LearningCurves(title string, curves []Curve, refs ...Reference) (*plot.Plot, error) {
	p, _, err := curvesPlot(title, curves)
	if err != nil {
		return nil, err
	}
	if err := addReferences(p, title, refs); err != nil {
		return nil, err
	}
	return p, nil
}

// CurvesWithReference is LearningCurves with one reference line at ref
// labelled refLabel (MethodReference): the compute-matched T-BPTT pairs k:H
// (Figure 5) and the H = 10 truncation study (Figure 6), against CCN's final
// error.
func CurvesWithReference(title string, curves []Curve, refLabel string, ref float64) (*plot.Plot, error) {
	return LearningCurves(title, curves, MethodReference(refLabel, ref))
}

// Ablation draws two sets of learning curves side by side with a common
// title (Figure 14: features per stage and steps per stage).
func Ablation(title, leftTitle string, left []Curve, rightTitle string, right []Curve) (*Grid, error) {
	lp, err := LearningCurves(leftTitle, left)
	if err != nil {
		return nil, err
	}
	rp, err := LearningCurves(rightTitle, right)
	if err != nil {
		return nil, err
	}
	g := NewGrid(title, 1, 2, lp, rp)
	g.Width, g.Height = 2*DefaultWidth, DefaultHeight
	return g, nil
}

// curvesPlot draws the curves and returns the plot and the x range they span.
func curvesPlot(title string, curves []Curve) (*plot.Plot, [2]float64, error) {
	var xr [2]float64
	if len(curves) == 0 {
		return nil, xr, missing(title, "no curves")
	}
	methods := make([]string, len(curves))
	sameSeeds := true
	for i, c := range curves {
		if err := c.check(title); err != nil {
			return nil, xr, err
		}
		methods[i] = c.Method
		sameSeeds = sameSeeds && c.Seeds == curves[0].Seeds
	}
	styles, err := curveStyles(title, methods)
	if err != nil {
		return nil, xr, err
	}
	if sameSeeds {
		title += fmt.Sprintf(" (mean ± s.e., %s)", seedsText(curves[0].Seeds))
	}
	p := newPlot(title, StepsLabel, ErrorLabel)
	p.X.Tick.Marker = stepTicks{}
	xr = [2]float64{curves[0].Steps[0], curves[0].Steps[0]}
	var lines []*plotter.Line
	for i, c := range curves {
		l, band, err := meanBand(c.Steps, c.Mean, c.StdErr, styles[i].Color, false)
		if err != nil {
			return nil, xr, fmt.Errorf("plots: curve %q: %w", c.Label, err)
		}
		l.Dashes = styles[i].Dashes
		if band != nil {
			band.Color = translucent(styles[i].Color, bandAlphaFor(len(curves)))
			p.Add(band)
		}
		lines = append(lines, l)
		label := c.Label
		if !sameSeeds {
			label += " (" + seedsText(c.Seeds) + ")"
		}
		if band != nil {
			p.Legend.Add(label, band, l)
		} else {
			p.Legend.Add(label, l)
		}
		for _, x := range c.Steps {
			xr[0], xr[1] = min(xr[0], x), max(xr[1], x)
		}
	}
	// Lines over every band, so no band hides another curve's mean.
	for _, l := range lines {
		p.Add(l)
	}
	p.X.Min = min(0, xr[0])
	return p, xr, nil
}

// seedsText is "1 seed" or "n seeds".
func seedsText(n int) string {
	if n == 1 {
		return "1 seed"
	}
	return fmt.Sprintf("%d seeds", n)
}
