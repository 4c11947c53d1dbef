package plots

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ccn-go/ccn/arch"
)

// FixedSchedule is a stage schedule drawn for reference beside the stages of
// runs that chose their own: the steps at which its stages 1, 2, … froze.
type FixedSchedule struct {
	Label   string
	Freezes []float64
}

// StageFreezes draws where the stages of runs froze: for run r and stage s
// (from 1), a point at
//
//	(x, y) = (runs[r][s−1], s + δ_r)      δ_r = 0.3 · (r/(n−1) − 1/2)
//
// (δ_r spreads the n runs over ±0.15 around each stage so that runs freezing
// at the same step stay apart; 0 for one run), and each fixed schedule as a
// line with markers through its freezes (Freezes[k−1], k). At least one run
// must have a freeze.
func StageFreezes(title string, runs [][]float64, fixed []FixedSchedule) (*plot.Plot, error) {
	p := newPlot(title, "step at which the stage froze", "stage")
	for i, f := range fixed {
		if len(f.Freezes) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(f.Freezes))
		for k, x := range f.Freezes {
			xys[k] = plotter.XY{X: x, Y: float64(k + 1)}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: %s: fixed schedule %s: %w", title, f.Label, err)
		}
		c := familyColors[(i+1)%len(familyColors)]
		line.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1), Dashes: familyDashes[1]}
		points.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.5), Shape: draw.BoxGlyph{}}
		p.Add(line, points)
		p.Legend.Add(f.Label, line, points)
	}
	var xys plotter.XYs
	for r, run := range runs {
		d := 0.0
		if len(runs) > 1 {
			d = 0.3 * (float64(r)/float64(len(runs)-1) - 0.5)
		}
		for s, x := range run {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("plots: %s: run %d stage %d froze at %v", title, r, s+1, x)
			}
			xys = append(xys, plotter.XY{X: x, Y: float64(s+1) + d})
		}
	}
	if len(xys) == 0 {
		return nil, missing(title, "no run froze a stage")
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	c := translucent(mustColor(arch.MethodCCN), 0xB0)
	sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	p.Legend.Add("auto (one point per run and stage)", sc)
	p.X.Tick.Marker = stepTicks{}
	p.Y.Tick.Marker = countTicks{}
	p.X.Min = 0
	p.Y.Min = 0.5
	return p, nil
}

// StageLengths draws the histogram of stage lengths (the steps from a
// stage's start to its freeze) in that many equal bins of [0, hi], hi the
// longest length or mark, with a vertical line at the first freeze of each
// of marks (the fixed schedules' lengths, labelled). lengths must not be
// empty.
func StageLengths(title string, lengths []float64, bins int, marks []FixedSchedule) (*plot.Plot, error) {
	if len(lengths) == 0 {
		return nil, missing(title, "no stage froze")
	}
	if bins < 1 {
		return nil, fmt.Errorf("plots: %s: %d bins", title, bins)
	}
	p := newPlot(title, "stage length (steps from its start to its freeze)", "stages")
	// Bins of equal width over [0, hi], hi the longest length or mark, so
	// that equal lengths still make a bar and the marks fall on the axis.
	hi := 0.0
	for _, l := range lengths {
		if math.IsNaN(l) || math.IsInf(l, 0) || l < 0 {
			return nil, fmt.Errorf("plots: %s: stage length %v", title, l)
		}
		hi = max(hi, l)
	}
	for _, m := range marks {
		for _, x := range m.Freezes[:min(1, len(m.Freezes))] {
			hi = max(hi, x)
		}
	}
	if hi == 0 {
		hi = 1
	}
	width := hi / float64(bins)
	h := &plotter.Histogram{Width: width, Bins: make([]plotter.HistogramBin, bins)}
	for i := range h.Bins {
		h.Bins[i].Min, h.Bins[i].Max = float64(i)*width, float64(i+1)*width
	}
	for _, l := range lengths {
		h.Bins[min(bins-1, int(l/width))].Weight++
	}
	h.FillColor = translucent(mustColor(arch.MethodCCN), 0x90)
	h.LineStyle = plotter.DefaultLineStyle
	h.LineStyle.Color = mustColor(arch.MethodCCN)
	p.Add(h)
	p.Legend.Add("auto", h)
	for i, m := range marks {
		if len(m.Freezes) == 0 {
			continue
		}
		v := vLine{X: m.Freezes[0], Style: draw.LineStyle{Color: familyColors[(i+1)%len(familyColors)], Width: vg.Points(1.2), Dashes: familyDashes[1]}}
		p.Add(v)
		p.Legend.Add(m.Label, v)
	}
	p.X.Tick.Marker = stepTicks{}
	p.Y.Tick.Marker = countTicks{}
	p.X.Min, p.Y.Min = 0, 0
	return p, nil
}

// vLine is a vertical line across the data area at X, also a legend
// thumbnail.
type vLine struct {
	X     float64
	Style draw.LineStyle
}

func (v vLine) Plot(c draw.Canvas, p *plot.Plot) {
	x := c.X(p.X.Norm(v.X))
	c.StrokeLine2(v.Style, x, c.Min.Y, x, c.Max.Y)
}

func (v vLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.X, v.X, math.Inf(1), math.Inf(-1)
}

func (v vLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.Style, c.Min.X, y, c.Max.X, y)
}

// countTicks labels an axis of counts with whole numbers only: every integer
// in range when there are at most 10, otherwise the whole multiples of the
// smallest of 1, 2, 5, 10, 20, 50, … that gives at most 10 labels.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := math.Ceil(lo), math.Floor(hi)
	if !(last >= first) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := 1.0
	for i := 0; (last-first)/step >= 10; i++ {
		step *= []float64{2, 2.5, 2}[i%3]
	}
	var ticks []plot.Tick
	for v := math.Ceil(first/step) * step; v <= last; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ticks
}
