package minatar

import "github.com/ccn-go/ccn/env/atari"

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

// clearScreen fills the screen with the background.
func clearScreen(s []uint8) {
	for i := range s {
		s[i] = background
	}
}

// fill draws shape sh of grid cell (row, col) in grey level v.
func fill(s []uint8, row, col int, sh shape, v uint8) {
	y0, x0 := top+cellH*row, cellW*col
	for y := y0 + sh.y0; y < y0+sh.y1; y++ {
		line := s[y*atari.ScreenWidth : (y+1)*atari.ScreenWidth]
		for x := x0 + sh.x0; x < x0+sh.x1; x++ {
			line[x] = v
		}
	}
}
