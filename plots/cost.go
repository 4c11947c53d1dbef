package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// CostSeries is the measured cost of one method at growing sizes.
type CostSeries struct {
	Label  string    // legend text, e.g. "T-BPTT k=10"
	Method string    // colour key
	Params []float64 // number of parameters
	Micros []float64 // µs per step (Step + Grad)
}

// Cost draws µs per step against the number of parameters on log-log axes,
// one series of points and lines per method (the paper's linear-versus-quartic
// cost claim, measured).
func Cost(title string, series []CostSeries) (*plot.Plot, error) {
	if len(series) == 0 {
		return nil, missing(title, "no series")
	}
	methods := make([]string, len(series))
	for i, s := range series {
		name := fmt.Sprintf("series %q", s.Label)
		if len(s.Params) == 0 {
			return nil, missing(title, "%s: no sizes", name)
		}
		if err := checkSeries(title, name, "parameter counts", s.Params, s.Params, true); err != nil {
			return nil, err
		}
		if err := checkSeries(title, name, "timings", s.Params, s.Micros, true); err != nil {
			return nil, err
		}
		methods[i] = s.Method
	}
	colors, err := assignColors(title, methods)
	if err != nil {
		return nil, err
	}
	p := newPlot(title, "parameters (log scale)", "µs per step, Step + Grad (log scale)")
	p.Legend.Left = true
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Tick.Marker = log10Ticks{}
	}
	for i, s := range series {
		xy := make(plotter.XYs, len(s.Params))
		for j := range xy {
			xy[j] = plotter.XY{X: math.Log10(s.Params[j]), Y: math.Log10(s.Micros[j])}
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, fmt.Errorf("plots: series %q: %w", s.Label, err)
		}
		l.Color = colors[i]
		l.Width = vg.Points(1.2)
		pts.Color = colors[i]
		pts.Shape = glyphs[i%len(glyphs)]
		pts.Radius = vg.Points(2.5)
		p.Add(l, pts)
		p.Legend.Add(s.Label, l, pts)
	}
	return p, nil
}

// glyphs tell series apart where colours are shades of one another.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
}
