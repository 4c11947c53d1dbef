package plots

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// bandAlpha is the opacity of a standard-error band.
const bandAlpha = 0x40

// meanBand returns the mean line of a series and its shaded band
// [mean − se, mean + se] in colour c. When logY is set the line and band are
// drawn at log10 of their values (for an axis marked by log10Ticks), and the
// band's lower edge is cut at a tenth of the mean where it would reach zero or
// below. se may be nil: then there is no band.
func meanBand(x, mean, se []float64, c color.RGBA, logY bool) (*plotter.Line, *plotter.Polygon, error) {
	n := len(x)
	line := make(plotter.XYs, n)
	for i := range x {
		line[i] = plotter.XY{X: x[i], Y: yOf(mean[i], logY)}
	}
	l, err := plotter.NewLine(line)
	if err != nil {
		return nil, nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.2)
	if se == nil {
		return l, nil, nil
	}
	ring := make(plotter.XYs, 0, 2*n)
	for i := range x {
		ring = append(ring, plotter.XY{X: x[i], Y: yOf(mean[i]+se[i], logY)})
	}
	for i := n - 1; i >= 0; i-- {
		lo := mean[i] - se[i]
		if logY && lo <= 0 {
			lo = mean[i] / 10
		}
		ring = append(ring, plotter.XY{X: x[i], Y: yOf(lo, logY)})
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, nil, err
	}
	poly.Color = translucent(c, bandAlpha)
	poly.LineStyle.Width = 0
	return l, poly, nil
}

// yOf is v, or log10(v) on a log axis.
func yOf(v float64, logY bool) float64 {
	if logY {
		return math.Log10(v)
	}
	return v
}

// checkSeries reports what is missing in a series named name of figure fig:
// no points, a length different from x's, or a non-finite value; positive
// demands strictly positive values (a log axis).
func checkSeries(fig, name, field string, x, v []float64, positive bool) error {
	switch {
	case len(v) == 0:
		return missing(fig, "%s: no %s", name, field)
	case len(v) != len(x):
		return missing(fig, "%s: %d %s for %d x values", name, len(v), field, len(x))
	}
	for i, y := range v {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return missing(fig, "%s: %s[%d] is %v", name, field, i, y)
		}
		if positive && y <= 0 {
			return missing(fig, "%s: %s[%d] = %v is not positive (log axis)", name, field, i, y)
		}
	}
	return nil
}

// newPlot returns a plot with title, axis labels, a grid and the legend at
// the top right.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xE0}
	grid.Horizontal.Color = color.Gray{Y: 0xE0}
	p.Add(grid)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.ThumbnailWidth = vg.Points(18)
	return p
}

// stepTicks labels a step axis compactly, 2.5M or 500k (plain below 10,000),
// at evenly spaced
// round values: the spacing is 1, 2, 2.5 or 5 times a power of ten, chosen
// for about five labels, with an unlabelled tick half-way between labels, and
// as many decimals as the spacing needs (0, 0.5M, 1M, 1.5M, 2M).
type stepTicks struct{}

func (stepTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	spacing := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			spacing = m * mag
			break
		}
	}
	div, suffix := 1.0, ""
	switch a := max(math.Abs(lo), math.Abs(hi)); {
	case a >= 1e6:
		div, suffix = 1e6, "M"
	case a >= 1e4:
		div, suffix = 1e3, "k"
	}
	decimals := max(0, int(math.Ceil(-math.Log10(spacing/div)-1e-9)))
	if m := spacing / div / math.Pow(10, -float64(decimals)); math.Abs(m-math.Round(m)) > 1e-6 {
		decimals++ // 2.5 at this magnitude needs one more
	}
	var ticks []plot.Tick
	half := spacing / 2
	first := math.Ceil(lo/half-1e-9) * half
	for i := 0; ; i++ {
		v := first + float64(i)*half
		if v > hi+1e-9*spacing {
			break
		}
		t := plot.Tick{Value: v}
		if r := v / spacing; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = formatSteps(v, div, suffix, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// formatSteps writes v/div with the given decimals, trailing zeros dropped,
// and the suffix.
func formatSteps(v, div float64, suffix string, decimals int) string {
	s := strconv.FormatFloat(v/div, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" || s == "0" {
		return "0"
	}
	return s + suffix
}

// trimFloat formats v rounded to 4 significant digits, without trailing zeros.
func trimFloat(v float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// log10Ticks marks an axis that holds log10 of the data (gonum/plot's log
// scale misplaces the axis label's glyph box, which shrinks the data area): a
// tick at every decade within [lo, hi] labelled with its value (1e-05, 0.001,
// 1, 100), the multiples 2..9 as minor ticks; when fewer than two decades fall
// in range the multiples 2 and 5 are labelled too.
type log10Ticks struct{}

func (log10Ticks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	labelled := 0
	for e := math.Floor(lo); e <= math.Ceil(hi); e++ {
		for i := 1; i < 10; i++ {
			v := e + math.Log10(float64(i))
			if v < lo-1e-9 || v > hi+1e-9 {
				continue
			}
			t := plot.Tick{Value: v}
			if i == 1 {
				t.Label = formatPow10(v)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		for i, t := range ticks {
			if m := math.Pow(10, t.Value-math.Floor(t.Value+1e-9)); math.Abs(m-2) < 1e-6 || math.Abs(m-5) < 1e-6 {
				ticks[i].Label = formatPow10(t.Value)
			}
		}
	}
	return ticks
}

// formatPow10 formats 10^v with 3 significant digits: 0.001, 1000, 1e4, 2e-5.
func formatPow10(v float64) string {
	x := math.Pow(10, v)
	if e := math.Floor(v + 1e-9); e >= 4 || e <= -4 {
		s := strconv.FormatFloat(x, 'e', -1, 64)
		s = strings.Replace(s, "e+", "e", 1)
		s = strings.Replace(s, "e-0", "e-", 1)
		return strings.Replace(s, "e0", "e", 1)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}
