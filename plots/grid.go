package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Drawer is a figure Save can render: a *plot.Plot or a *Grid.
type Drawer interface {
	Draw(c draw.Canvas)
}

// Sizer is a Drawer with its own size; Save uses it instead of the default.
type Sizer interface {
	Size() (w, h vg.Length)
}

// Default size of a single-panel figure.
const (
	DefaultWidth  = 6 * vg.Inch
	DefaultHeight = 4 * vg.Inch
)

// Grid is a multi-panel figure: Rows×Cols plots, row-major, with their axes
// aligned, and an optional title over all panels.
type Grid struct {
	Title  string
	Rows   int
	Cols   int
	Panels []*plot.Plot // len Rows·Cols; a nil panel leaves its tile blank

	// Width and Height are the size of the whole figure; if 0 they default
	// to Cols·DefaultWidth·0.75 and Rows·DefaultHeight·0.75.
	Width, Height vg.Length
}

// NewGrid returns a rows×cols grid of panels (row-major). It panics if the
// number of panels is not rows·cols.
func NewGrid(title string, rows, cols int, panels ...*plot.Plot) *Grid {
	if rows < 1 || cols < 1 || len(panels) != rows*cols {
		panic(fmt.Sprintf("plots: grid %d×%d with %d panels", rows, cols, len(panels)))
	}
	return &Grid{Title: title, Rows: rows, Cols: cols, Panels: panels}
}

// Size returns the size of the whole figure.
func (g *Grid) Size() (w, h vg.Length) {
	w, h = g.Width, g.Height
	if w == 0 {
		w = vg.Length(g.Cols) * DefaultWidth * 3 / 4
	}
	if h == 0 {
		h = vg.Length(g.Rows) * DefaultHeight * 3 / 4
	}
	return w, h
}

// Draw draws the title and the aligned panels on c, each panel's legend on
// its right, outside its axes.
func (g *Grid) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if g.Title != "" {
		sty := titleStyle()
		h := sty.Height(g.Title)
		c.FillText(sty, vg.Point{X: c.Center().X, Y: c.Max.Y - vg.Points(4)}, g.Title)
		c.Max.Y -= h + vg.Points(8)
	}
	ps := make([][]*plot.Plot, g.Rows)
	for r := range g.Rows {
		ps[r] = g.Panels[r*g.Cols : (r+1)*g.Cols]
	}
	tiles := draw.Tiles{
		Rows: g.Rows, Cols: g.Cols,
		PadX: vg.Points(12), PadY: vg.Points(10),
		PadLeft: vg.Points(4), PadRight: vg.Points(8), PadTop: vg.Points(4), PadBottom: vg.Points(4),
	}
	canvases := plot.Align(ps, tiles, c)
	alignRows(ps, canvases)
	for r := range g.Rows {
		for col := range g.Cols {
			if p := ps[r][col]; p != nil {
				drawPlot(p, canvases[r][col])
			}
		}
	}
}

// alignRows makes the data areas of each row of panels start and end at the
// same heights, as plot.Align is meant to but does not always do: gonum/plot
// pads a data area for its glyphs in proportion to its height, so panels with
// different axes can end up points apart. Each canvas is cropped by the amount
// that moves its data edge onto the row's common one, found from the measured
// rate at which cropping moves that edge (a secant step, repeated).
func alignRows(ps [][]*plot.Plot, cs [][]draw.Canvas) {
	edge := func(p *plot.Plot, c draw.Canvas, top bool) vg.Length {
		dc := p.DataCanvas(c)
		if top {
			return dc.Max.Y
		}
		return dc.Min.Y
	}
	for r := range ps {
		for _, top := range []bool{true, false} {
			for range 4 {
				target := vg.Length(math.Inf(1))
				if !top {
					target = vg.Length(math.Inf(-1))
				}
				for col, p := range ps[r] {
					if p != nil {
						e := edge(p, cs[r][col], top)
						if top {
							target = min(target, e)
						} else {
							target = max(target, e)
						}
					}
				}
				for col, p := range ps[r] {
					if p == nil {
						continue
					}
					c := cs[r][col]
					e := edge(p, c, top)
					if math.Abs(float64(e-target)) < 0.01 {
						continue
					}
					probe := c
					if top {
						probe.Max.Y--
					} else {
						probe.Min.Y++
					}
					rate := math.Abs(float64(edge(p, probe, top) - e)) // per point of crop
					if rate < 0.1 {
						rate = 1
					}
					crop := vg.Length(math.Abs(float64(e-target)) / rate)
					if top {
						cs[r][col].Max.Y -= crop
					} else {
						cs[r][col].Min.Y += crop
					}
				}
			}
		}
	}
}

// ShareY gives every panel the same y range, the union of their ranges, so
// that panels meant to be compared are read on one scale. Call it once the
// panels hold their data.
func (g *Grid) ShareY() {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range g.Panels {
		if p != nil {
			lo, hi = min(lo, p.Y.Min), max(hi, p.Y.Max)
		}
	}
	for _, p := range g.Panels {
		if p != nil {
			p.Y.Min, p.Y.Max = lo, hi
		}
	}
}

// titleStyle is the text style of a grid title: the plot title font, centred
// and hanging from its anchor.
func titleStyle() text.Style {
	sty := plot.New().Title.TextStyle
	sty.XAlign = draw.XCenter
	sty.YAlign = draw.YTop
	return sty
}
