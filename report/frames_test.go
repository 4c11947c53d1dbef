package report_test

import (
	"image"
	"testing"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/plots"
	"github.com/ccn-go/ccn/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrames(t *testing.T) {
	fig, err := report.Frames([]int{40, 41}, 3)
	require.NoError(t, err)
	assert.Equal(t, report.NameFrames, fig.Name)
	g, ok := fig.Drawer.(*plots.Grid)
	require.True(t, ok)
	assert.Equal(t, [2]int{5, 3}, [2]int{g.Rows, g.Cols}, "five games: the screen and two frames")
	for r := range g.Rows {
		for c := range g.Cols {
			p := g.Panels[r*g.Cols+c]
			want := [2]float64{atari.ScreenWidth, atari.ScreenHeight}
			if c > 0 {
				want = [2]float64{atari.FrameSide, atari.FrameSide}
			}
			assert.Equal(t, want, [2]float64{p.X.Max, p.Y.Max}, "panel %d, %d", r, c)
		}
	}
	_, err = report.Frames([]int{5, 2}, 1)
	assert.Error(t, err, "steps must increase")
	_, err = report.Frames(nil, 1)
	assert.Error(t, err)
}

func TestFramesPanelsNeedFrames(t *testing.T) {
	_, err := plots.Frames([]plots.FrameRow{{Name: "x", Screen: image.NewGray(image.Rect(0, 0, 2, 2))}})
	assert.Error(t, err)
}
