package plots

import (
	"fmt"
	"image"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// FrameRow is one row of the frames picture: a game's full-resolution grey
// screen and its downscaled frames at a few steps.
type FrameRow struct {
	Name   string
	Screen *image.Gray // the full screen at Steps[0]
	Frames []*image.Gray
	Steps  []int // the step of each frame
}

// Frames draws the paper's "environments down-scaled to 16×16" figure: one
// row per game, the full screen on the left and its downscaled frames at the
// given steps to its right, grey levels as they are (0 black, 255 white).
// Every row must have as many frames as the first.
func Frames(rows []FrameRow) (*Grid, error) {
	const fig = "frames"
	if len(rows) == 0 || len(rows[0].Frames) == 0 {
		return nil, missing(fig, "no frames")
	}
	cols := 1 + len(rows[0].Frames)
	var panels []*plot.Plot
	for _, r := range rows {
		if len(r.Frames) != cols-1 || len(r.Steps) != cols-1 || r.Screen == nil {
			return nil, missing(fig, "%s: %d frames, %d steps, screen %v; the first row has %d frames",
				r.Name, len(r.Frames), len(r.Steps), r.Screen != nil, cols-1)
		}
		panels = append(panels, imagePanel(fmt.Sprintf("%s, step %d (%d×%d)", r.Name, r.Steps[0],
			r.Screen.Bounds().Dy(), r.Screen.Bounds().Dx()), r.Screen))
		for i, f := range r.Frames {
			panels = append(panels, imagePanel(fmt.Sprintf("step %d (%d×%d)", r.Steps[i], f.Bounds().Dy(), f.Bounds().Dx()), f))
		}
	}
	g := NewGrid("", len(rows), cols, panels...)
	g.Width = vg.Length(cols) * 2 * vg.Inch
	g.Height = vg.Length(len(rows)) * 2.4 * vg.Inch
	return g, nil
}

// imagePanel shows img with its aspect ratio and no axes.
func imagePanel(title string, img *image.Gray) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(9)
	b := img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	// Screens are 210×160 and frames 16×16: show both in a square-ish box,
	// the screen taller than wide as on a television.
	p.Add(plotter.NewImage(nearest(img, 160/b.Dx()), 0, 0, w, h))
	p.X.Min, p.X.Max = 0, w
	p.Y.Min, p.Y.Max = 0, h
	p.HideAxes()
	return p
}

// nearest returns img enlarged k times by pixel repetition, so that a small
// frame is drawn as sharp squares rather than smoothed by the renderer.
func nearest(img *image.Gray, k int) *image.Gray {
	if k <= 1 {
		return img
	}
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx()*k, b.Dy()*k))
	for y := range out.Rect.Dy() {
		for x := range out.Rect.Dx() {
			out.Pix[y*out.Stride+x] = img.GrayAt(b.Min.X+x/k, b.Min.Y+y/k).Y
		}
	}
	return out
}
