package minatar

import (
	"slices"

	"github.com/ccn-go/ccn/env/atari"
)

// Grid and screen geometry: grid cell (row, col) covers the screen rows
// top+cellH·row … +cellH and columns cellW·col … +cellW.
const (
	gridSize   = 10
	cellW      = atari.ScreenWidth / gridSize // 16
	cellH      = 20
	top        = (atari.ScreenHeight - gridSize*cellH) / 2 // 5
	background = 0
)

// shape is the part of a cell an object covers, in pixels from the cell's
// top-left corner. The downscaling samples screen rows 189-190 and 202-203
// in the bottom grid row, so the paddle, the cannon and the gauges there
// cover one of these pairs (TestBottomRowVisible).
type shape struct{ x0, y0, x1, y1 int }

var (
	block = shape{1, 2, 15, 18}  // a large object: 14×16 px
	small = shape{5, 5, 11, 15}  // a ball or bullet: 6×10 px
	flat  = shape{0, 3, 16, 9}   // a paddle or cannon: 16×6 px
	upper = shape{0, 2, 16, 9}   // a gauge in the upper half of a cell
	lower = shape{0, 12, 16, 19} // a gauge in the lower half of a cell
)

// canvas is what a game is drawn on: the 210×160 grey screen (row-major),
// or only its pixels at some rows and columns. A game paints the screen,
//
//	screen[y][x] = v   for y0 ≤ y < y1, x0 ≤ x < x1   (fill)
//
// and a sampled canvas keeps the pixels (rows[i], cols[j]) of that screen,
//
//	pix[i·len(cols) + j] = screen[rows[i]][cols[j]]
//
// painting the rows rowAt[y0] … rowAt[y1]−1 of pix, where rowAt[y] is the
// number of rows above screen row y (rows ascending), and likewise the
// columns. The stream draws the pixels that atari.Downscale reads
// (atari.ScreenSamples, 32×32 of the 33,600) at every step, and the whole
// screen only when asked for it (Stream.Screen).
type canvas struct {
	pix   []uint8
	width int
	rowAt *[atari.ScreenHeight + 1]int // nil for the whole screen
	colAt *[atari.ScreenWidth + 1]int
}

// newScreen returns a cleared canvas of the whole screen.
func newScreen() *canvas {
	return &canvas{pix: make([]uint8, atari.ScreenHeight*atari.ScreenWidth), width: atari.ScreenWidth}
}

// Downscale's samples of the screen, and their rowAt and colAt tables.
var (
	sampledRows, sampledCols = atari.ScreenSamples()
	sampledRowAt             = func() (at [atari.ScreenHeight + 1]int) { lowerBounds(at[:], sampledRows); return }()
	sampledColAt             = func() (at [atari.ScreenWidth + 1]int) { lowerBounds(at[:], sampledCols); return }()
)

// lowerBounds sets at[y] to the number of elements of the ascending list v
// below y.
func lowerBounds(at, v []int) {
	for y := range at {
		at[y], _ = slices.BinarySearch(v, y)
	}
}

// newSampled returns a cleared canvas of the screen pixels Downscale reads.
func newSampled() *canvas {
	return &canvas{pix: make([]uint8, len(sampledRows)*len(sampledCols)), width: len(sampledCols),
		rowAt: &sampledRowAt, colAt: &sampledColAt}
}

// clear fills the canvas with the background.
func (c *canvas) clear() {
	for i := range c.pix {
		c.pix[i] = background
	}
}

// fill draws shape sh of grid cell (row, col) in grey level v.
func (c *canvas) fill(row, col int, sh shape, v uint8) {
	y0, x0 := top+cellH*row, cellW*col
	y0, y1, x0, x1 := y0+sh.y0, y0+sh.y1, x0+sh.x0, x0+sh.x1
	if c.rowAt != nil {
		y0, y1, x0, x1 = c.rowAt[y0], c.rowAt[y1], c.colAt[x0], c.colAt[x1]
	}
	for y := y0; y < y1; y++ {
		line := c.pix[y*c.width : (y+1)*c.width]
		for x := x0; x < x1; x++ {
			line[x] = v
		}
	}
}
