package plots

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TraceNames are the row names of a trace patterning observation (paper §4):
// six CS bits, the US, five distractors.
func TraceNames() []string {
	return []string{"CS1", "CS2", "CS3", "CS4", "CS5", "CS6", "US", "D1", "D2", "D3", "D4", "D5"}
}

// Colours of the stimulus kinds in the stream picture, by name prefix.
var (
	csColor         = color.RGBA{R: 0x1F, G: 0x3A, B: 0x93, A: 0xFF}
	usColor         = color.RGBA{R: 0xC0, G: 0x10, B: 0x10, A: 0xFF}
	distractorColor = color.RGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xFF}
)

// Stream draws a stretch of a stream as the paper's Figure 3: on
// top, the observations as an image with one row per observation index
// (labelled by names; a row named CS… is drawn in blue, US… in red, anything
// else as a grey distractor), a cell's opacity its value clipped to [0, 1];
// below, the true return G_t on the same time axis. obs[t] is the observation
// at step t of the stretch; names may be nil when every observation has 12
// values (TraceNames is used).
func Stream(obs [][]float64, returns []float64, names []string) (*Grid, error) {
	const fig = "stream"
	if len(obs) == 0 {
		return nil, missing(fig, "no observations")
	}
	n := len(obs[0])
	if n == 0 {
		return nil, missing(fig, "observation 0 is empty")
	}
	for t, o := range obs {
		if len(o) != n {
			return nil, missing(fig, "observation %d has %d values, observation 0 has %d", t, len(o), n)
		}
	}
	if names == nil && n == len(TraceNames()) {
		names = TraceNames()
	}
	if len(names) != n {
		return nil, missing(fig, "%d row names for observations of %d values", len(names), n)
	}
	steps := make([]float64, len(obs))
	for t := range steps {
		steps[t] = float64(t)
	}
	if err := checkSeries(fig, "true return", "values", steps, returns, false); err != nil {
		return nil, err
	}

	top := newPlot("trace patterning stream", "", "stimulus")
	raster := &stimuli{obs: obs, colors: make([]color.RGBA, n)}
	ticks := make(plot.ConstantTicks, n)
	for r, name := range names {
		switch {
		case strings.HasPrefix(strings.ToUpper(name), "CS"):
			raster.colors[r] = csColor
		case strings.HasPrefix(strings.ToUpper(name), "US"):
			raster.colors[r] = usColor
		default:
			raster.colors[r] = distractorColor
		}
		ticks[r] = plot.Tick{Value: raster.rowY(r), Label: name}
	}
	top.Add(raster)
	top.Y.Tick.Marker = ticks
	top.Y.Tick.Label.Font.Size = vg.Points(7)
	top.X.Tick.Marker = stepTicks{}

	bottom := newPlot("", "steps", "true return G_t")
	l, _, err := meanBand(steps, returns, nil, color.RGBA{A: 0xFF}, false)
	if err != nil {
		return nil, fmt.Errorf("plots: stream: %w", err)
	}
	bottom.Add(l)
	bottom.X.Tick.Marker = stepTicks{}
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Min, p.X.Max = -0.5, float64(len(obs))-0.5
		p.X.Padding = 0
	}
	g := NewGrid("", 2, 1, top, bottom)
	g.Width, g.Height = 7*vg.Inch, 5*vg.Inch
	return g, nil
}

// stimuli draws observations as coloured cells, row r at the top for r = 0.
type stimuli struct {
	obs    [][]float64
	colors []color.RGBA
}

var (
	_ plot.Plotter    = (*stimuli)(nil)
	_ plot.DataRanger = (*stimuli)(nil)
)

func (s *stimuli) rowY(r int) float64 { return float64(len(s.colors) - 1 - r) }

func (s *stimuli) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for t, o := range s.obs {
		for r, v := range o {
			if !(v > 0) {
				continue
			}
			v = min(v, 1)
			y := s.rowY(r)
			rect := vg.Rectangle{
				Min: vg.Point{X: trX(float64(t) - 0.5), Y: trY(y - 0.4)},
				Max: vg.Point{X: trX(float64(t) + 0.5), Y: trY(y + 0.4)},
			}
			// At least a hairline wide, so single-step stimuli stay visible
			// in long stretches.
			if w := rect.Max.X - rect.Min.X; w < vg.Points(0.6) {
				rect.Max.X = rect.Min.X + vg.Points(0.6)
			}
			c.SetColor(translucent(s.colors[r], uint8(255*v)))
			c.Fill(rect.Path())
		}
	}
}

func (s *stimuli) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(len(s.obs)) - 0.5, -0.5, float64(len(s.colors)) - 0.5
}
