package atari

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResizeUpscaleHandComputed checks a 2×2 → 4×4 resize against values
// computed by hand: sample positions (d+0.5)/2 − 0.5 = −0.25, 0.25, 0.75,
// 1.25 on both axes; the outer ones clamp to the border; weights 3/4 and
// 1/4; results rounded half up.
func TestResizeUpscaleHandComputed(t *testing.T) {
	src := []uint8{
		0, 100,
		200, 40,
	}
	want := []uint8{
		0, 25, 75, 100, // row 0 only
		50, 59, 76, 85, // ¾·row0 + ¼·row1: 58.75 → 59, 76.25 → 76
		150, 126, 79, 55, // ¼·row0 + ¾·row1: 126.25 → 126, 78.75 → 79
		200, 160, 80, 40, // row 1 only
	}
	got := make([]uint8, 16)
	NewResizer(2, 2, 4, 4).Resize(got, src)
	assert.Equal(t, want, got)
}

// TestDownscaleHandComputed checks the benchmark's 210×160 → 16×16 resize:
// output column dx samples columns 10dx+4 and 10dx+5 with weights ½, ½;
// output row dy samples rows ⌊13.125dy + 6.0625⌋ and the next with weight
// frac(13.125dy + 6.0625) on the second: row 0 → rows 6, 7 (15/16, 1/16),
// row 1 → rows 19, 20 (13/16, 3/16), row 15 → rows 202, 203 (1/16, 15/16).
func TestDownscaleHandComputed(t *testing.T) {
	screen := make([]uint8, ScreenHeight*ScreenWidth)
	set := func(y, x int, v uint8) { screen[y*ScreenWidth+x] = v }
	// Output (0, 0): (15/16)·(100+200)/2 + (1/16)·(50+0)/2 = 140.625 + 1.5625 = 142.1875 → 142.
	set(6, 4, 100)
	set(6, 5, 200)
	set(7, 4, 50)
	// Output (1, 3): rows 19, 20, columns 34, 35: (13/16)·(16+0)/2 + (3/16)·(0+0)/2 = 6.5 → 7 (half up).
	set(19, 34, 16)
	// Output (0, 15): rows 6, 7, columns 154, 155: (1/16)·(8+8)/2 = 0.5 → 1 (half up, not to even).
	set(7, 154, 8)
	set(7, 155, 8)
	// Output (15, 0): 13.125·15 + 6.0625 = 202.9375: rows 202, 203 with (1/16, 15/16):
	// (1/16)·255 + (15/16)·(255+255)/2 = 255.
	set(202, 4, 255)
	set(202, 5, 255)
	set(203, 4, 255)
	set(203, 5, 255)
	// A pixel no output samples (column 0, row 0) changes nothing.
	set(0, 0, 255)

	var frame [FrameSize]uint8
	Downscale(&frame, screen)
	want := map[[2]int]uint8{{0, 0}: 142, {1, 3}: 7, {0, 15}: 1, {15, 0}: 255}
	for dy := range FrameSide {
		for dx := range FrameSide {
			assert.Equal(t, want[[2]int{dy, dx}], frame[dy*FrameSide+dx], "pixel (%d, %d)", dy, dx)
		}
	}
}

func TestDownscaleUniformScreen(t *testing.T) {
	for _, v := range []uint8{0, 1, 127, 255} {
		screen := make([]uint8, ScreenHeight*ScreenWidth)
		for i := range screen {
			screen[i] = v
		}
		var frame [FrameSize]uint8
		Downscale(&frame, screen)
		for i, p := range frame {
			require.Equal(t, v, p, "value %d pixel %d", v, i)
		}
	}
}

func TestResizePanics(t *testing.T) {
	assert.Panics(t, func() { NewResizer(0, 1, 1, 1) })
	assert.Panics(t, func() { NewResizer(2, 2, 4, 4).Resize(make([]uint8, 16), make([]uint8, 3)) })
	assert.Panics(t, func() { NewResizer(2, 2, 4, 4).ResizeSampled(make([]uint8, 16), make([]uint8, 3)) })
	assert.Panics(t, func() { NewResizer(2, 2, 4, 4).ResizeSampled(make([]uint8, 15), make([]uint8, 4)) })
}

// TestResizeSampled: for random sources (dense, mostly blank, blank) of
// several sizes (down, up, mixed, clamped borders, more than maxRowSums
// sampled columns), Resize's output does not change when every pixel outside
// Samples' rows × columns is redrawn at random (Samples lists every pixel
// Resize reads), and ResizeSampled on the sampled pixels alone writes the
// same bytes as Resize.
func TestResizeSampled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][4]int{
		{ScreenHeight, ScreenWidth, FrameSide, FrameSide},
		{2, 2, 4, 4}, {7, 5, 3, 9}, {1, 1, 3, 3}, {3, 600, 2, 300}, {2, 250, 3, 200}, {100, 3, 7, 1}, {5, 5, 5, 5}, {9, 31, 4, 4}, {3, 40, 11, 6},
	} {
		srcH, srcW, dstH, dstW := sz[0], sz[1], sz[2], sz[3]
		r := NewResizer(srcH, srcW, dstH, dstW)
		rows, cols := r.Samples()
		require.True(t, slices.IsSorted(rows) && slices.IsSorted(cols), "%v", sz)
		inRows, inCols := make([]bool, srcH), make([]bool, srcW)
		for _, y := range rows {
			inRows[y] = true
		}
		for _, x := range cols {
			inCols[x] = true
		}
		src := make([]uint8, srcH*srcW)
		want, other, got := make([]uint8, dstH*dstW), make([]uint8, dstH*dstW), make([]uint8, dstH*dstW)
		sampled := make([]uint8, len(rows)*len(cols))
		for trial := range 50 {
			for i := range src {
				switch trial {
				case 0:
					src[i] = 255
				case 1:
					src[i] = uint8(i % 2 * 255)
				case 2:
					src[i] = 0
				case 3, 4, 5, 6, 7, 8, 9: // mostly blank, as a game's screen
					src[i] = 0
					if rng.IntN(20) == 0 {
						src[i] = uint8(rng.UintN(256))
					}
				default:
					src[i] = uint8(rng.UintN(256))
				}
			}
			r.Resize(want, src)
			for i, y := range rows {
				for j, x := range cols {
					sampled[i*len(cols)+j] = src[y*srcW+x]
				}
			}
			r.ResizeSampled(got, sampled)
			require.Equal(t, want, got, "%v trial %d", sz, trial)
			for y := range srcH {
				for x := range srcW {
					if !inRows[y] || !inCols[x] {
						src[y*srcW+x] = uint8(rng.UintN(256))
					}
				}
			}
			r.Resize(other, src)
			require.Equal(t, want, other, "%v trial %d: a pixel outside the samples matters", sz, trial)
		}
	}
}

// TestScreenSamples: Downscale reads rows ⌊13.125dy + 6.0625⌋ and the next
// (all 32 distinct) and columns 10dx+4, 10dx+5 (see
// TestDownscaleHandComputed).
func TestScreenSamples(t *testing.T) {
	var wantRows, wantCols []int
	for d := range FrameSide {
		y := int(math.Floor(13.125*float64(d) + 6.0625))
		wantRows = append(wantRows, y, y+1)
		wantCols = append(wantCols, 10*d+4, 10*d+5)
	}
	rows, cols := ScreenSamples()
	assert.Equal(t, wantRows, rows)
	assert.Equal(t, wantCols, cols)
	rows[0] = -1 // the caller's copy
	rows, _ = ScreenSamples()
	assert.Equal(t, wantRows[0], rows[0])
}

func BenchmarkDownscale(b *testing.B) {
	screen := make([]uint8, ScreenHeight*ScreenWidth)
	for i := range screen {
		screen[i] = uint8(i)
	}
	var frame [FrameSize]uint8
	b.ReportAllocs()
	for b.Loop() {
		Downscale(&frame, screen)
	}
}

func BenchmarkDownscaleSampled(b *testing.B) {
	rows, cols := ScreenSamples()
	sampled := make([]uint8, len(rows)*len(cols))
	for i := range sampled {
		sampled[i] = uint8(i)
	}
	var frame [FrameSize]uint8
	b.ReportAllocs()
	for b.Loop() {
		DownscaleSampled(&frame, sampled)
	}
}
