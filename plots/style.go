package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// familyColors are the colours of the curves of one figure when several of
// them share a method (the k:H pairs of T-BPTT, the CCN ablations): distinct
// hues, readable by colour-blind readers (Okabe–Ito, with Tol's olive and
// black), in this order.
var familyColors = []color.RGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	{R: 0x00, G: 0x00, B: 0x00, A: 0xFF}, // black
	{R: 0x99, G: 0x99, B: 0x33, A: 0xFF}, // olive
}

// familyDashes are the line styles cycled with familyColors: solid, dashed,
// dotted, dash-dot. With 8 colours and 4 styles no two of the first 8
// curves look alike, even in grey print (neighbours differ in style).
var familyDashes = [][]vg.Length{
	nil,
	{vg.Points(5), vg.Points(2.5)},
	{vg.Points(1.2), vg.Points(1.8)},
	{vg.Points(5), vg.Points(2), vg.Points(1.2), vg.Points(2)},
}

// lineStyle is the colour and dash pattern of one curve.
type lineStyle struct {
	Color  color.RGBA
	Dashes []vg.Length
}

// curveStyles returns a style per curve of figure fig from the curves'
// methods: when every method occurs once, the method's own colour (solid);
// when a method occurs more than once, the curves are a family and each takes
// the next of familyColors with the next of familyDashes, so every curve can
// be told apart.
func curveStyles(fig string, methods []string) ([]lineStyle, error) {
	count := map[string]int{}
	for _, m := range methods {
		if m == "" {
			return nil, missing(fig, "a series has no method")
		}
		if _, err := MethodColor(m); err != nil {
			return nil, err
		}
		count[normalizeMethod(m)]++
	}
	family := false
	for _, n := range count {
		family = family || n > 1
	}
	out := make([]lineStyle, len(methods))
	for i, m := range methods {
		if !family {
			c, _ := MethodColor(m)
			out[i] = lineStyle{Color: c}
			continue
		}
		out[i] = lineStyle{Color: familyColors[i%len(familyColors)], Dashes: familyDashes[i%len(familyDashes)]}
	}
	return out, nil
}

// bandAlphaFor is the opacity of the standard-error bands of a figure with n
// curves: lighter when many bands overlap.
func bandAlphaFor(n int) uint8 {
	if n > 4 {
		return 0x1C
	}
	return bandAlpha
}

// Reference is a horizontal reference line drawn across a panel with its
// label written on it, not a curve: the best constant prediction's error
// (Baseline) or another method's final error (MethodReference).
type Reference struct {
	Label  string
	Value  float64
	Color  color.Color
	Dashes []vg.Length
	// Left puts the label at the left end of the line; otherwise it is at
	// the right end.
	Left bool
}

// Baseline returns the reference line of the best constant prediction,
// whose error is mse: grey, dashed, labelled at the right end (where the
// curves of a learner are below it).
func Baseline(mse float64) Reference {
	return Reference{Label: fmt.Sprintf("best constant prediction %.3g", mse), Value: mse,
		Color: color.Gray{Y: 0x70}, Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
}

// MethodReference returns the reference line of a method's final error:
// black, dotted, labelled at the left end (where learning curves are still
// high).
func MethodReference(label string, v float64) Reference {
	return Reference{Label: fmt.Sprintf("%s %.3g", label, v), Value: v, Color: color.Black,
		Dashes: []vg.Length{vg.Points(1.5), vg.Points(2.5)}, Left: true}
}

// refLine draws a Reference across the data area of its plot: a plot.Plotter
// that also reports its value as data range, so the line is always in view.
type refLine struct {
	Reference
}

// Plot draws the line and, over a white box, its label.
func (r refLine) Plot(c draw.Canvas, p *plot.Plot) {
	y := c.Y(p.Y.Norm(r.Value))
	if y < c.Min.Y-1e-6 || y > c.Max.Y+1e-6 {
		return
	}
	c.StrokeLine2(draw.LineStyle{Color: r.Color, Width: vg.Points(1.2), Dashes: r.Dashes}, c.Min.X, y, c.Max.X, y)
	sty := refTextStyle()
	pad := vg.Points(3)
	x := c.Max.X - pad
	sty.XAlign = draw.XRight
	if r.Left {
		x = c.Min.X + pad
		sty.XAlign = draw.XLeft
	}
	// Above the line, or below it when the line runs along the top.
	sty.YAlign = draw.YBottom
	ty := y + vg.Points(1.5)
	if rect := sty.Rectangle(r.Label); ty+rect.Max.Y > c.Max.Y {
		sty.YAlign = draw.YTop
		ty = y - vg.Points(1.5)
	}
	rect := sty.Rectangle(r.Label)
	box := vg.Rectangle{Min: vg.Point{X: x + rect.Min.X - 1, Y: ty + rect.Min.Y}, Max: vg.Point{X: x + rect.Max.X + 1, Y: ty + rect.Max.Y}}
	c.SetColor(color.White)
	c.Fill(box.Path())
	sty.Color = r.Color
	c.FillText(sty, vg.Point{X: x, Y: ty}, r.Label)
}

// DataRange makes the reference's value part of the y range.
func (r refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), r.Value, r.Value
}

// refTextStyle is the text style of reference labels.
func refTextStyle() draw.TextStyle {
	sty := plot.New().Legend.TextStyle
	sty.Font.Size = vg.Points(8)
	return sty
}

// addReferences draws refs on p, checking their values for figure fig.
func addReferences(p *plot.Plot, fig string, refs []Reference) error {
	for _, r := range refs {
		if err := checkSeries(fig, "reference "+r.Label, "value", []float64{0}, []float64{r.Value}, false); err != nil {
			return err
		}
		p.Add(refLine{r})
	}
	return nil
}

// legendGap is the space between the axes and a legend drawn outside them;
// legendMargin the space right of the legend.
var legendGap, legendMargin = vg.Points(6), vg.Points(4)

// legendWidth is the width of p's legend, 0 without entries.
func legendWidth(p *plot.Plot) vg.Length {
	r := p.Legend.Rectangle(draw.Canvas{})
	return r.Max.X - r.Min.X
}

// drawPlot draws p on c with its legend, if it has one, in a column right of
// the axes, top-aligned with the data area, so that no legend hides data.
func drawPlot(p *plot.Plot, c draw.Canvas) {
	lw := legendWidth(p)
	if lw == 0 {
		p.Draw(c)
		return
	}
	leg := p.Legend
	p.Legend = plot.NewLegend()
	defer func() { p.Legend = leg }()
	pc := c
	pc.Max.X -= lw + legendGap + legendMargin
	p.Draw(pc)
	dc := p.DataCanvas(pc)
	out := leg
	out.Left, out.Top, out.XOffs, out.YOffs = true, true, 0, 0
	out.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: pc.Max.X + legendGap, Y: dc.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: dc.Max.Y},
	}})
}

// framed is a single plot drawn on a white background with its legend
// outside the axes (drawPlot).
type framed struct{ p *plot.Plot }

func (f framed) Draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	drawPlot(f.p, c)
}
