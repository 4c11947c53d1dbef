package atari

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// Fixed-point precision of OpenCV's 8-bit linear resize: coefficients are
// multiples of 2⁻¹¹.
const (
	coefBits  = 11
	coefScale = 1 << coefBits
)

// Resizer resizes 8-bit grey images of one size to another with bilinear
// interpolation, bit for bit as OpenCV's cv::resize with INTER_LINEAR does
// for 8-bit images in its reference (scalar) code. Destination pixel (dy, dx)
// samples the source at the centre-aligned position
//
//	fx = (dx + 0.5)·(srcW/dstW) − 0.5     (in float32, as OpenCV does)
//	sx = ⌊fx⌋, α = fx − sx
//
// (likewise fy, sy, β); a column left of 0 or right of srcW−1 is clamped to
// the border with α = 0, a row outside is clamped to the nearest row. The
// weights are rounded to multiples of 2⁻¹¹ (ties to even), and
//
//	h(row)  = (2048−α')·S[row][sx] + α'·S[row][sx+1]             (integers)
//	D[dy][dx] = ((2048−β')·h(sy) + β'·h(sy+1) + 2²¹) >> 22
//
// so the result is the interpolated value rounded half up whenever the
// weights are exact, as they are for 210×160 → 16×16 (α = 1/2, β a multiple
// of 1/16). Vectorized builds of OpenCV may round some pixels differently by
// one unit; this follows the reference code.
type Resizer struct {
	srcH, srcW, dstH, dstW int
	xofs, yofs             []int   // first source column / row per output
	alpha, beta            []int32 // fixed-point weights, 2 per output column / row

	// The pixels Resize reads: rows × cols (ascending source indices), and
	// per output row / column the indices into them of its two taps.
	rows, cols []int
	ty, tx     []int    // 2 per output row / column
	colTaps    []colTap // 1 per output column
}

// colTap is an output column's two sampled columns and their weights.
type colTap struct {
	j0, j1 uint8 // as bytes (tx has them all), for ResizeSampled's row sums
	a0, a1 int32
}

// NewResizer returns a Resizer from srcH×srcW to dstH×dstW. It panics if a
// size is not positive.
func NewResizer(srcH, srcW, dstH, dstW int) *Resizer {
	if srcH < 1 || srcW < 1 || dstH < 1 || dstW < 1 {
		panic(fmt.Sprintf("atari: resize %d×%d to %d×%d", srcH, srcW, dstH, dstW))
	}
	r := &Resizer{srcH: srcH, srcW: srcW, dstH: dstH, dstW: dstW,
		xofs: make([]int, dstW), yofs: make([]int, dstH),
		alpha: make([]int32, 2*dstW), beta: make([]int32, 2*dstH)}
	weights := func(f float32) (int32, int32) {
		w0 := int32(math.RoundToEven(float64((1 - f) * coefScale)))
		w1 := int32(math.RoundToEven(float64(f * coefScale)))
		return w0, w1
	}
	scaleX := float64(srcW) / float64(dstW)
	for dx := range dstW {
		fx := float32((float64(dx)+0.5)*scaleX - 0.5)
		sx := int(math.Floor(float64(fx)))
		fx -= float32(sx)
		if sx < 0 {
			fx, sx = 0, 0
		}
		if sx >= srcW-1 {
			fx, sx = 0, srcW-1
		}
		r.xofs[dx] = sx
		r.alpha[2*dx], r.alpha[2*dx+1] = weights(fx)
	}
	scaleY := float64(srcH) / float64(dstH)
	for dy := range dstH {
		fy := float32((float64(dy)+0.5)*scaleY - 0.5)
		sy := int(math.Floor(float64(fy)))
		fy -= float32(sy)
		r.yofs[dy] = sy
		r.beta[2*dy], r.beta[2*dy+1] = weights(fy)
	}
	r.setTaps()
	return r
}

// setTaps lists the source rows and columns that Resize reads and indexes
// each output's taps into them. Resize reads rows yofs and yofs+1 (clamped)
// for every output row, columns xofs and, where the second weight is not
// zero, xofs+1 (a column whose second weight is zero uses its first tap
// twice, times zero).
func (r *Resizer) setTaps() {
	ty, tx := make([]int, 2*r.dstH), make([]int, 2*r.dstW)
	for dy, sy := range r.yofs {
		ty[2*dy], ty[2*dy+1] = max(0, min(r.srcH-1, sy)), max(0, min(r.srcH-1, sy+1))
	}
	for dx, sx := range r.xofs {
		tx[2*dx], tx[2*dx+1] = sx, sx
		if r.alpha[2*dx+1] != 0 {
			tx[2*dx+1] = sx + 1
		}
	}
	r.rows, r.ty = index(ty)
	r.cols, r.tx = index(tx)
	r.colTaps = make([]colTap, r.dstW)
	for dx := range r.colTaps {
		r.colTaps[dx] = colTap{uint8(r.tx[2*dx]), uint8(r.tx[2*dx+1]), r.alpha[2*dx], r.alpha[2*dx+1]}
	}
}

// index returns the distinct values of v in ascending order and, for each
// element of v, its position among them.
func index(v []int) (distinct, pos []int) {
	distinct = slices.Clone(v)
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	pos = make([]int, len(v))
	for i, x := range v {
		pos[i], _ = slices.BinarySearch(distinct, x)
	}
	return distinct, pos
}

// Samples returns the source rows and columns that Resize reads, each in
// ascending order without repeats: the output depends only on the source
// pixels (rows[i], cols[j]), which ResizeSampled takes alone. The slices are
// the caller's.
func (r *Resizer) Samples() (rows, cols []int) {
	return slices.Clone(r.rows), slices.Clone(r.cols)
}

// ResizeSampled writes into dst (dstH·dstW pixels) exactly what Resize writes
// for a source src whose sampled pixels are
//
//	sampled[i·len(cols) + j] = src[rows[i]·srcW + cols[j]]
//
// with rows and cols as Samples returns them; it reads nothing else, so a
// caller can draw only those pixels. It panics if a length is wrong. It does
// not allocate.
//
// It sums the same integer products as Resize, rows first: with at most 256
// sampled columns, v(j) = β'₀·S[sy][j] + β'₁·S[sy+1][j] for every sampled
// column j, then D = (α'₀·v(sx) + α'₁·v(sx+1) + 2²¹) >> 22, which is exact
// in integers and so equal to Resize's sum; an output row whose two source
// rows are all 0 is 0.
func (r *Resizer) ResizeSampled(dst, sampled []uint8) {
	nc := len(r.cols)
	if len(sampled) != len(r.rows)*nc || len(dst) != r.dstH*r.dstW {
		panic(fmt.Sprintf("atari: resize sampled lengths %d → %d, want %d → %d", len(sampled), len(dst), len(r.rows)*nc, r.dstH*r.dstW))
	}
	if nc > maxRowSums {
		r.resizeSampledSlow(dst, sampled)
		return
	}
	taps := r.colTaps
	var sums [maxRowSums]int32 // ≤ 2·2048·255 (weights are at most 2048)
	for dy := range r.dstH {
		i0, i1 := r.ty[2*dy]*nc, r.ty[2*dy+1]*nc
		s0, s1 := sampled[i0:i0+nc], sampled[i1:i1+nc]
		out := dst[dy*r.dstW : (dy+1)*r.dstW]
		if zero(s0) && zero(s1) { // a blank band, as most of a game's screen
			clear(out)
			continue
		}
		b0, b1 := r.beta[2*dy], r.beta[2*dy+1]
		v := sums[:len(s0)]
		s1 = s1[:len(s0)]
		for j, p := range s0 {
			v[j] = b0*int32(p) + b1*int32(s1[j])
		}
		out = out[:len(taps)]
		for dx, c := range taps {
			d := (int64(c.a0)*int64(sums[c.j0]) + int64(c.a1)*int64(sums[c.j1]) + 1<<(2*coefBits-1)) >> (2 * coefBits)
			out[dx] = uint8(min(255, d))
		}
	}
}

// zero reports whether every pixel of s is 0.
func zero(s []uint8) bool {
	for ; len(s) >= 8; s = s[8:] {
		if binary.LittleEndian.Uint64(s) != 0 {
			return false
		}
	}
	for _, p := range s {
		if p != 0 {
			return false
		}
	}
	return true
}

// maxRowSums is the most sampled columns that ResizeSampled sums rows
// first for (its column indices are bytes).
const maxRowSums = 256

// resizeSampledSlow is ResizeSampled for more than maxRowSums sampled
// columns, summing each output's taps as Resize does.
func (r *Resizer) resizeSampledSlow(dst, sampled []uint8) {
	nc := len(r.cols)
	for dy := range r.dstH {
		i0, i1 := r.ty[2*dy]*nc, r.ty[2*dy+1]*nc
		s0, s1 := sampled[i0:i0+nc], sampled[i1:i1+nc]
		b0, b1 := int64(r.beta[2*dy]), int64(r.beta[2*dy+1])
		for dx, c := range r.colTaps {
			j0, j1 := r.tx[2*dx], r.tx[2*dx+1]
			h0 := c.a0*int32(s0[j0]) + c.a1*int32(s0[j1])
			h1 := c.a0*int32(s1[j0]) + c.a1*int32(s1[j1])
			d := (b0*int64(h0) + b1*int64(h1) + 1<<(2*coefBits-1)) >> (2 * coefBits)
			dst[dy*r.dstW+dx] = uint8(min(255, d))
		}
	}
}

// Resize writes the resized src (srcH·srcW pixels, row-major) into dst
// (dstH·dstW pixels). It panics if a length is wrong. It does not allocate.
func (r *Resizer) Resize(dst, src []uint8) {
	if len(src) != r.srcH*r.srcW || len(dst) != r.dstH*r.dstW {
		panic(fmt.Sprintf("atari: resize lengths %d → %d, want %d → %d", len(src), len(dst), r.srcH*r.srcW, r.dstH*r.dstW))
	}
	row := func(y int) []uint8 {
		y = max(0, min(r.srcH-1, y))
		return src[y*r.srcW : (y+1)*r.srcW]
	}
	for dy := range r.dstH {
		s0, s1 := row(r.yofs[dy]), row(r.yofs[dy]+1)
		b0, b1 := r.beta[2*dy], r.beta[2*dy+1]
		out := dst[dy*r.dstW : (dy+1)*r.dstW]
		for dx := range out {
			sx, a0, a1 := r.xofs[dx], r.alpha[2*dx], r.alpha[2*dx+1]
			h0, h1 := a0*int32(s0[sx]), a0*int32(s1[sx])
			if a1 != 0 {
				h0 += a1 * int32(s0[sx+1])
				h1 += a1 * int32(s1[sx+1])
			}
			v := (int64(b0)*int64(h0) + int64(b1)*int64(h1) + 1<<(2*coefBits-1)) >> (2 * coefBits)
			out[dx] = uint8(max(0, min(255, v)))
		}
	}
}

// screenResizer is the benchmark's 210×160 → 16×16 resize.
var screenResizer = NewResizer(ScreenHeight, ScreenWidth, FrameSide, FrameSide)

// Downscale resizes a 210×160 grey screen (row-major) to the 16×16 frame.
// It does not allocate.
func Downscale(frame *[FrameSize]uint8, screen []uint8) {
	screenResizer.Resize(frame[:], screen)
}

// ScreenSamples returns the screen rows and columns that Downscale reads
// (Resizer.Samples): 32 rows and the 32 columns 10k+4, 10k+5.
func ScreenSamples() (rows, cols []int) { return screenResizer.Samples() }

// DownscaleSampled writes into frame what Downscale writes for a screen whose
// pixels at the rows and columns of ScreenSamples are sampled
// (Resizer.ResizeSampled). It does not allocate.
func DownscaleSampled(frame *[FrameSize]uint8, sampled []uint8) {
	screenResizer.ResizeSampled(frame[:], sampled)
}
