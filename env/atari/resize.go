package atari

import (
	"fmt"
	"math"
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
	return r
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
