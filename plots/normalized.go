package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ccn-go/ccn/arch"
)

// NormalizedLabel is the y-axis label of NormalizedErrors panels,
// NormalizedIntervalLabel that of panels whose every bar is an interval.
const (
	NormalizedLabel         = "normalized error (mean ± s.e.)"
	NormalizedIntervalLabel = "normalized error (mean, 95% interval)"
)

// NormalizedErrors draws normalized errors (paper §5: a method's error over
// the best T-BPTT's on the same game): one point with a ±1 s.e. bar per
// entry (from Low to High for an entry with Interval set), in the colour of
// its method whatever the other entries (unlike FinalErrors, which gives
// repeated methods a family of colours), and a dashed line at one labelled
// one. An entry without a value (NaN mean) has an empty slot at its tick; at
// least one must have a value. An entry with a value but neither an interval
// nor a s.e. (NaN StdErr: one run, no spread to show) is its point alone. The
// y axis says "95% interval" when every bar drawn is an interval.
func NormalizedErrors(title, xLabel, one string, points []Point) (*plot.Plot, error) {
	label := NormalizedIntervalLabel
	for _, pt := range points {
		if !math.IsNaN(pt.Mean) && !pt.Interval && !math.IsNaN(pt.StdErr) {
			label = NormalizedLabel
		}
	}
	p := newPlot(title, xLabel, label)
	labels := make([]string, len(points))
	drawn := 0
	for i, pt := range points {
		labels[i] = pt.Label
		c, err := MethodColor(pt.Method)
		if err != nil {
			return nil, err
		}
		if math.IsNaN(pt.Mean) {
			continue
		}
		// The bar: centre ± half-width, Mean ± StdErr or the interval
		// [Low, High] (which a percentile interval may leave the mean out of).
		centre, half := pt.Mean, pt.StdErr
		if pt.Interval {
			centre, half = (pt.Low+pt.High)/2, (pt.High-pt.Low)/2
			if math.IsNaN(half) || math.IsInf(half, 0) || half < 0 {
				return nil, fmt.Errorf("plots: %s: point %q has an interval [%v, %v] that is not finite or inverted", title, pt.Label, pt.Low, pt.High)
			}
		}
		noBar := !pt.Interval && math.IsNaN(pt.StdErr)
		if math.IsInf(pt.Mean, 0) || (!noBar && (math.IsNaN(half) || math.IsInf(half, 0))) {
			return nil, fmt.Errorf("plots: %s: point %q has a non-finite mean or standard error", title, pt.Label)
		}
		x := float64(i)
		sc, err := plotter.NewScatter(plotter.XYs{{X: x, Y: pt.Mean}})
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		if !noBar {
			p.Add(&plotter.YErrorBars{
				XYs:       plotter.XYs{{X: x, Y: centre}},
				YErrors:   plotter.YErrors{{Low: half, High: half}},
				LineStyle: draw.LineStyle{Color: c, Width: vg.Points(1.2)},
				CapWidth:  vg.Points(6),
			})
		}
		p.Add(sc)
		drawn++
	}
	if drawn == 0 {
		return nil, missing(title, "no entry with a value")
	}
	p.NominalX(labels...)
	p.Y.Tick.Marker = decimalTicks{}
	// One empty slot on the right holds the reference line's label, which
	// would otherwise hide the last point.
	p.X.Min, p.X.Max = -0.5, float64(len(points))+0.5
	ref := Reference{Label: one, Value: 1, Color: mustColor(arch.MethodTBPTT), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	if err := addReferences(p, title, []Reference{ref}); err != nil {
		return nil, err
	}
	return p, nil
}
