package plots

import (
	"fmt"
	"image/color"
	"math"

	"github.com/ccn-go/ccn/arch"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// BiasSeries is the bias of the truncated gradient g_k of one network size,
// as a function of the truncation length k, against the exact gradient g:
//
//	relative error    ‖g_k − g‖ / ‖g‖
//	cosine similarity g_k·g / (‖g_k‖·‖g‖)
//
// each the mean ± standard error over Samples gradients (time points × seeds).
type BiasSeries struct {
	Label            string    // legend text, e.g. "H = 4 (84 params)"
	K                []float64 // truncation lengths
	RelErr, RelErrSE []float64
	Cos, CosSE       []float64
	Samples          int // gradients averaged at each k
	Seeds            int // networks (seeds) among them
}

// GradientBias draws the truncation study's gradient bias in two panels side
// by side, relative error (log scale) and cosine similarity against k, one
// mean ± s.e. band per series in shades of the T-BPTT colour, with the band of
// inter-stimulus intervals [isiLo, isiHi] shaded: the delays T-BPTT must span
// to credit the CS for the US.
func GradientBias(title string, series []BiasSeries, isiLo, isiHi float64) (*Grid, error) {
	if len(series) == 0 {
		return nil, missing(title, "no series")
	}
	methods := make([]string, len(series))
	for i, s := range series {
		name := fmt.Sprintf("series %q", s.Label)
		if s.Samples < 1 || s.Seeds < 1 {
			return nil, missing(title, "%s: %d samples from %d seeds", name, s.Samples, s.Seeds)
		}
		if len(s.K) == 0 {
			return nil, missing(title, "%s: no truncation lengths", name)
		}
		for _, f := range []struct {
			field string
			v     []float64
			pos   bool
		}{{"relative errors", s.RelErr, true}, {"relative error s.e.", s.RelErrSE, false}, {"cosines", s.Cos, false}, {"cosine s.e.", s.CosSE, false}} {
			if err := checkSeries(title, name, f.field, s.K, f.v, f.pos); err != nil {
				return nil, err
			}
		}
		methods[i] = string(arch.MethodTBPTT)
	}
	styles, err := curveStyles(title, methods)
	if err != nil {
		return nil, err
	}

	rel := newPlot("relative error |g_k - g| / |g|", "truncation length k (steps)", "relative error (log scale)")
	rel.Y.Tick.Marker = log10Ticks{}
	cos := newPlot("cosine similarity of g_k and g", "truncation length k (steps)", "cosine similarity")
	cos.Legend.Top = false

	panels := []struct {
		p      *plot.Plot
		mean   func(BiasSeries) []float64
		se     func(BiasSeries) []float64
		logY   bool
		lo, hi float64
	}{
		{rel, func(s BiasSeries) []float64 { return s.RelErr }, func(s BiasSeries) []float64 { return s.RelErrSE }, true, math.Inf(1), math.Inf(-1)},
		{cos, func(s BiasSeries) []float64 { return s.Cos }, func(s BiasSeries) []float64 { return s.CosSE }, false, math.Inf(1), math.Inf(-1)},
	}
	for pi := range panels {
		pn := &panels[pi]
		for _, s := range series {
			m, se := pn.mean(s), pn.se(s)
			for i := range m {
				lo := m[i] - se[i]
				if pn.logY && lo <= 0 {
					lo = m[i] / 10
				}
				pn.lo, pn.hi = min(pn.lo, yOf(lo, pn.logY)), max(pn.hi, yOf(m[i]+se[i], pn.logY))
			}
		}
		// The ISI band first, under the curves.
		isi, err := plotter.NewPolygon(plotter.XYs{{X: isiLo, Y: pn.lo}, {X: isiHi, Y: pn.lo}, {X: isiHi, Y: pn.hi}, {X: isiLo, Y: pn.hi}})
		if err != nil {
			return nil, fmt.Errorf("plots: ISI band: %w", err)
		}
		isi.Color = color.RGBA{R: 0xE8, G: 0xE8, B: 0xE8, A: 0xFF}
		isi.LineStyle.Width = 0
		pn.p.Add(isi)
		var lines []*plotter.Line
		for i, s := range series {
			l, band, err := meanBand(s.K, pn.mean(s), pn.se(s), styles[i].Color, pn.logY)
			if err != nil {
				return nil, fmt.Errorf("plots: series %q: %w", s.Label, err)
			}
			l.Dashes = styles[i].Dashes
			pn.p.Add(band)
			lines = append(lines, l)
			pn.p.Legend.Add(s.Label, band, l)
		}
		for _, l := range lines {
			pn.p.Add(l)
		}
		pn.p.Legend.Add(fmt.Sprintf("ISI %s-%s", trimFloat(isiLo), trimFloat(isiHi)), isi)
	}

	full := fmt.Sprintf("%s (mean ± s.e. over %s)", title, samplesText(series))
	g := NewGrid(full, 1, 2, rel, cos)
	g.Width, g.Height = 2*DefaultWidth, DefaultHeight
	return g, nil
}

// samplesText says how many gradients and seeds each series averages.
func samplesText(series []BiasSeries) string {
	s0 := series[0]
	for _, s := range series[1:] {
		if s.Samples != s0.Samples || s.Seeds != s0.Seeds {
			return "the gradients of each series"
		}
	}
	return fmt.Sprintf("%d gradients, %s", s0.Samples, seedsText(s0.Seeds))
}
