package report

import (
	"fmt"
	"image"
	"slices"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/env/minatar"
	"github.com/ccn-go/ccn/plots"
)

// NameFrames is the file base name of the frames picture.
const NameFrames = "frames"

// DefaultFrameSteps are the steps of the frames picture: three consecutive
// steps, after the longest no-op start (30 steps).
var DefaultFrameSteps = []int{60, 61, 62}

// Frames draws the paper's "environments down-scaled to 16×16" figure for
// the five pixel games (package minatar) of seed: each game's 210×160 grey
// screen at steps[0] next to its 16×16 frames at every step of steps
// (increasing). It needs no results.
func Frames(steps []int, seed uint64) (Figure, error) {
	if len(steps) == 0 || !slices.IsSorted(steps) || steps[0] < 0 {
		return Figure{}, missing(NameFrames, "steps %v (want increasing steps ≥ 0)", steps)
	}
	var rows []plots.FrameRow
	for _, g := range minatar.Games {
		s, err := minatar.New(g.Name, seed, minatar.Config{})
		if err != nil {
			return Figure{}, err
		}
		row := plots.FrameRow{Name: g.Name, Steps: steps}
		x := make([]float64, s.ObservationSize())
		for t, k := 0, 0; k < len(steps); t++ {
			s.Next(x)
			if t != steps[k] {
				continue
			}
			if k == 0 {
				row.Screen = grey(s.Screen(), atari.ScreenWidth, atari.ScreenHeight)
			}
			row.Frames = append(row.Frames, grey(s.Frame()[:], atari.FrameSide, atari.FrameSide))
			k++
		}
		rows = append(rows, row)
	}
	grid, err := plots.Frames(rows)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Name: NameFrames, Drawer: grid, Caption: fmt.Sprintf(
		"The five pixel games (MinAtar's rules) at steps %v of seed %d: left, the 210×160 grey screen the game is drawn on; "+
			"right, the 16×16 frames the learner sees (bilinear downscaling as OpenCV's cv::resize, then /256, followed by the "+
			"one-hot action and the clipped reward: 275 inputs). As in the paper's Atari frames, a single frame hides motion "+
			"and small objects (balls, bullets) show only in some positions; freeway, asterix and seaquest flicker, drawing two "+
			"groups of objects on alternate frames as Atari 2600 games multiplex their sprites.", steps, seed)}, nil
}

// grey copies pixels (row-major, w×h) into a grey image.
func grey(pix []uint8, w, h int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, pix)
	return img
}
