package minatar

import (
	"math"
	"testing"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSampledDrawing: the stream's fast path (the drawn copy of the game
// replaying the lead's actions, drawing only the screen pixels that
// atari.Downscale reads, then atari.DownscaleSampled) gives exactly what the
// reference path (the drawn copy running its own policy, drawing the whole
// screen at every step, then atari.Downscale) gives: the same inputs, cumulants, returns, Done flags,
// actions and raw rewards, bit for bit, at every step of every game for seeds
// 1-3 (10,000 steps each in short mode, 200,000 otherwise). At every step the
// sampled canvas equals the whole screen at its rows and columns, and now
// and then the fast stream's Screen (drawn on demand) equals the reference's.
func TestSampledDrawing(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 10_000
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for _, g := range Games {
		t.Run(g.Name, func(t *testing.T) {
			for _, seed := range []uint64{1, 2, 3} {
				fast, err := New(g.Name, seed, Config{})
				require.NoError(t, err)
				ref, _ := New(g.Name, seed, Config{})
				ref.reference = true
				xf, xr := make([]float64, atari.Inputs), make([]float64, atari.Inputs)
				for step := range n {
					cf, gf := fast.Next(xf)
					cr, gr := ref.Next(xr)
					for k := range xf {
						if !same(xf[k], xr[k]) {
							t.Fatalf("seed %d step %d: input %d = %v, reference %v", seed, step, k, xf[k], xr[k])
						}
					}
					if !same(cf, cr) || !same(gf, gr) || fast.Done() != ref.Done() ||
						fast.Action() != ref.Action() || !same(fast.Reward(), ref.Reward()) {
						t.Fatalf("seed %d step %d: (c, G, done, action, reward) = (%v, %v, %v, %d, %v), reference (%v, %v, %v, %d, %v)",
							seed, step, cf, gf, fast.Done(), fast.Action(), fast.Reward(), cr, gr, ref.Done(), ref.Action(), ref.Reward())
					}
					screen := ref.Screen()
					for i, y := range sampledRows {
						for j, x := range sampledCols {
							if p, q := fast.sampled.pix[i*len(sampledCols)+j], screen[y*atari.ScreenWidth+x]; p != q {
								t.Fatalf("seed %d step %d: sampled pixel (%d, %d) = %d, screen %d", seed, step, y, x, p, q)
							}
						}
					}
					if step%997 == 0 {
						require.Equal(t, screen, fast.Screen(), "seed %d step %d", seed, step)
					}
				}
			}
		})
	}
}

// TestScreenOnDemand: before the first step the screen is all background;
// after a step Screen draws it, the same on every call until the next step,
// and Downscale of it is the frame.
func TestScreenOnDemand(t *testing.T) {
	s, _ := New("space-invaders", 4, Config{})
	assert.Equal(t, make([]uint8, atari.ScreenHeight*atari.ScreenWidth), s.Screen())
	x := make([]float64, atari.Inputs)
	for range 40 {
		s.Next(x)
		a := append([]uint8(nil), s.Screen()...)
		assert.Equal(t, a, s.Screen())
		var f [atari.FrameSize]uint8
		atari.Downscale(&f, a)
		assert.Equal(t, f, *s.Frame())
		assert.Contains(t, a, uint8(invadersCannon))
	}
}

// TestSampledCanvas: a shape drawn on the sampled canvas covers the sampled
// pixels inside it and nothing else, for every shape and cell.
func TestSampledCanvas(t *testing.T) {
	for _, sh := range []shape{block, small, flat, upper, lower} {
		for row := range gridSize {
			for col := range gridSize {
				c := newSampled()
				c.fill(row, col, sh, 9)
				y0, x0 := top+cellH*row+sh.y0, cellW*col+sh.x0
				y1, x1 := top+cellH*row+sh.y1, cellW*col+sh.x1
				for i, y := range sampledRows {
					for j, x := range sampledCols {
						in := y >= y0 && y < y1 && x >= x0 && x < x1
						require.Equal(t, in, c.pix[i*len(sampledCols)+j] == 9, "shape %+v cell (%d, %d) pixel (%d, %d)", sh, row, col, y, x)
					}
				}
			}
		}
	}
}
