package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// EstimatorSeries is one gradient estimator of one network: its error against
// the exact gradient g at one or more costs per step (T-BPTT has one point
// per truncation length k, the others one point):
//
//	relative error    ‖ĝ − g‖ / ‖g‖
//	cosine similarity ĝ·g / (‖ĝ‖·‖g‖)
//
// each a mean over trajectories, with a spread over the estimator's random
// draws (0 for a deterministic estimator) drawn as a bar of ± one spread.
type EstimatorSeries struct {
	Label        string    // legend text, e.g. "T-BPTT k = 1..60"
	Method       string    // colour key
	Ops          []float64 // operations per step (Step + Grad), positive
	RelErr       []float64 // positive (log axis)
	RelErrSpread []float64 // nil or one per point, not negative
	Cos          []float64
	CosSpread    []float64 // nil or one per point, not negative
}

// EstimatorPanel is one network's column of the figure.
type EstimatorPanel struct {
	Title  string // e.g. "H = 4 (276 params)"
	Series []EstimatorSeries
}

// GradientEstimators draws the accuracy of gradient estimators against their
// cost: one column per panel (network), relative error on top (log scale),
// cosine similarity below, both against operations per step (log scale); a
// series with several points is a line with markers, a single point a marker.
// Error bars are ± the spread; on the log axis a bar reaching zero or below
// is cut at a tenth of the point's value.
func GradientEstimators(title string, panels []EstimatorPanel) (*Grid, error) {
	if len(panels) == 0 {
		return nil, missing(title, "no panels")
	}
	var methods []string
	for _, pn := range panels {
		if len(pn.Series) == 0 {
			return nil, missing(title, "panel %q: no series", pn.Title)
		}
		for _, s := range pn.Series {
			name := fmt.Sprintf("panel %q series %q", pn.Title, s.Label)
			if len(s.Ops) == 0 {
				return nil, missing(title, "%s: no points", name)
			}
			checks := []struct {
				field string
				v     []float64
				pos   bool
			}{{"operation counts", s.Ops, true}, {"relative errors", s.RelErr, true}, {"cosines", s.Cos, false}}
			if s.RelErrSpread != nil {
				checks = append(checks, struct {
					field string
					v     []float64
					pos   bool
				}{"relative error spreads", s.RelErrSpread, false})
			}
			if s.CosSpread != nil {
				checks = append(checks, struct {
					field string
					v     []float64
					pos   bool
				}{"cosine spreads", s.CosSpread, false})
			}
			for _, c := range checks {
				if err := checkSeries(title, name, c.field, s.Ops, c.v, c.pos); err != nil {
					return nil, err
				}
			}
		}
	}
	for _, s := range panels[0].Series {
		methods = append(methods, s.Method)
	}
	colors, err := assignColors(title, methods)
	if err != nil {
		return nil, err
	}
	colorOf := map[string]int{}
	for i, m := range methods {
		colorOf[m] = i
	}

	cols := len(panels)
	plots := make([]*plot.Plot, 2*cols)
	for c, pn := range panels {
		rel := newPlot(pn.Title, "operations per step (log scale)", "relative error (log scale)")
		cos := newPlot("", "operations per step (log scale)", "cosine similarity")
		for _, p := range []*plot.Plot{rel, cos} {
			p.X.Tick.Marker = log10Ticks{}
			p.Legend.Top = false
		}
		rel.Y.Tick.Marker = decadeTicks{}
		for i, s := range pn.Series {
			ci, ok := colorOf[s.Method]
			if !ok {
				return nil, missing(title, "panel %q series %q: method %q not in the first panel", pn.Title, s.Label, s.Method)
			}
			col := colors[ci]
			for _, row := range []struct {
				p      *plot.Plot
				y, spr []float64
				logY   bool
			}{{rel, s.RelErr, s.RelErrSpread, true}, {cos, s.Cos, s.CosSpread, false}} {
				xy := make(plotter.XYs, len(s.Ops))
				for j := range xy {
					xy[j] = plotter.XY{X: math.Log10(s.Ops[j]), Y: yOf(row.y[j], row.logY)}
				}
				pts, err := plotter.NewScatter(xy)
				if err != nil {
					return nil, fmt.Errorf("plots: series %q: %w", s.Label, err)
				}
				pts.Color = col
				pts.Shape = glyphs[i%len(glyphs)]
				pts.Radius = vg.Points(2.5)
				if len(xy) > 15 {
					pts.Radius = vg.Points(1.2) // many points: the line carries them
				}
				thumbs := []plot.Thumbnailer{pts}
				if len(xy) > 1 {
					l, err := plotter.NewLine(xy)
					if err != nil {
						return nil, fmt.Errorf("plots: series %q: %w", s.Label, err)
					}
					l.Color = col
					l.Width = vg.Points(1.2)
					row.p.Add(l)
					thumbs = append([]plot.Thumbnailer{l}, thumbs...)
				}
				row.p.Add(pts)
				if row.spr != nil {
					bars := make(errorPoints, len(xy))
					for j := range bars {
						lo, hi := row.y[j]-row.spr[j], row.y[j]+row.spr[j]
						if row.logY && lo <= 0 {
							lo = row.y[j] / 10
						}
						bars[j] = errorPoint{x: xy[j].X, y: xy[j].Y, lo: xy[j].Y - yOf(lo, row.logY), hi: yOf(hi, row.logY) - xy[j].Y}
					}
					eb, err := plotter.NewYErrorBars(bars)
					if err != nil {
						return nil, fmt.Errorf("plots: series %q: %w", s.Label, err)
					}
					eb.Color = col
					eb.LineStyle.Width = vg.Points(1)
					row.p.Add(eb)
				}
				if c == cols-1 && row.logY {
					row.p.Legend.Add(s.Label, thumbs...)
				}
			}
		}
		// Room around the points at the edges (glyphs, bars).
		for _, p := range []*plot.Plot{rel, cos} {
			p.X.Min, p.X.Max = p.X.Min-0.08, p.X.Max+0.08
		}
		rel.Y.Min, rel.Y.Max = rel.Y.Min-0.3, rel.Y.Max+0.3
		cos.Y.Min, cos.Y.Max = cos.Y.Min-0.03, cos.Y.Max+0.03
		plots[c], plots[cols+c] = rel, cos
	}
	g := NewGrid(title, 2, cols, plots...)
	g.Width, g.Height = vg.Length(cols)*DefaultWidth*3/4+vg.Inch*1.5, 2*DefaultHeight*3/4
	return g, nil
}

// errorPoints are points with asymmetric vertical error bars.
type errorPoints []errorPoint

type errorPoint struct{ x, y, lo, hi float64 }

func (e errorPoints) Len() int                    { return len(e) }
func (e errorPoints) XY(i int) (float64, float64) { return e[i].x, e[i].y }
func (e errorPoints) YError(i int) (float64, float64) {
	return e[i].lo, e[i].hi
}

// decadeTicks marks a log10 axis that may span many decades: log10Ticks when
// it spans at most six, else a tick at every decade, about six of them
// labelled, and no minor ticks between decades.
type decadeTicks struct{}

func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo-1e-9), math.Floor(hi+1e-9)
	if last-first <= 6 {
		return log10Ticks{}.Ticks(lo, hi)
	}
	every := math.Ceil((last - first) / 6)
	var ticks []plot.Tick
	for e := first; e <= last; e++ {
		t := plot.Tick{Value: e}
		if math.Mod(e, every) == 0 {
			t.Label = formatPow10(e)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
