package plots

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMethodColorIgnoresCaseAndPunctuation(t *testing.T) {
	tests := []struct{ a, b string }{{"T-BPTT", string(arch.MethodTBPTT)}, {"CCN", string(arch.MethodCCN)}, {"Columnar", string(arch.MethodColumnar)}, {"RTRL", string(arch.MethodRTRL)}}
	for _, tc := range tests {
		ca, err := MethodColor(tc.a)
		require.NoError(t, err)
		cb, err := MethodColor(tc.b)
		require.NoError(t, err)
		assert.Equal(t, cb, ca, tc.a)
	}
	for _, m := range arch.Methods() { // every label names its method
		info, _ := arch.Info(m)
		c, err := MethodColor(info.Label)
		require.NoError(t, err, info.Label)
		assert.Equal(t, info.Color, c, info.Label)
	}
	_, err := MethodColor("gru")
	assert.ErrorContains(t, err, "want one of ccn, columnar, constructive, linear, rtrl, rtu, rtu-linear, snap1, tbptt, uoro")
}

func TestMethodColorsDistinct(t *testing.T) {
	seen := map[color.RGBA]string{}
	for _, m := range Methods() {
		c, err := MethodColor(m)
		require.NoError(t, err)
		_, dup := seen[c]
		assert.False(t, dup, "%s shares a colour with %s", m, seen[c])
		seen[c] = m
	}
}

func TestShadeIsSequential(t *testing.T) {
	base, err := MethodColor(string(arch.MethodTBPTT))
	require.NoError(t, err)
	assert.Equal(t, base, Shade(base, 0, 1), "one shade is the base colour")
	const n = 6
	prev := 1e9
	for i := range n {
		c := Shade(base, i, n)
		l := 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
		assert.Less(t, l, prev, "shade %d is darker than shade %d", i, i-1)
		prev = l
	}
	assert.Panics(t, func() { Shade(base, 3, 3) })
}

func TestAssignColorsSharesShadesWithinMethod(t *testing.T) {
	cs, err := assignColors("f", []string{string(arch.MethodCCN), string(arch.MethodTBPTT), string(arch.MethodTBPTT), string(arch.MethodColumnar)})
	require.NoError(t, err)
	ccn, _ := MethodColor(string(arch.MethodCCN))
	col, _ := MethodColor(string(arch.MethodColumnar))
	tb, _ := MethodColor(string(arch.MethodTBPTT))
	assert.Equal(t, ccn, cs[0], "a lone method keeps its colour")
	assert.Equal(t, col, cs[3])
	assert.Equal(t, Shade(tb, 0, 2), cs[1])
	assert.Equal(t, Shade(tb, 1, 2), cs[2])
	assert.NotEqual(t, cs[1], cs[2])
}

// Every method with a colour gets it from assignColors, under its own name
// and under a label: SnAp-1's name has a digit, which the label form drops
// (it was drawn transparent).
func TestAssignColorsEveryMethod(t *testing.T) {
	for _, m := range Methods() {
		want, err := MethodColor(m)
		require.NoError(t, err)
		cs, err := assignColors("f", []string{m, strings.ToUpper(m)})
		require.NoError(t, err)
		assert.Equal(t, []color.RGBA{Shade(want, 0, 2), Shade(want, 1, 2)}, cs, m)
		assert.Equal(t, uint8(0xFF), cs[0].A, "%s is opaque", m)
	}
}

// distinctColors counts the distinct colours among the first limit pixels
// sampled on a regular grid of img.
func distinctColors(img image.Image, limit int) int {
	b := img.Bounds()
	step := max(1, b.Dx()*b.Dy()/limit)
	seen := map[color.RGBA64]bool{}
	for i := 0; i < b.Dx()*b.Dy(); i += step {
		x, y := b.Min.X+i%b.Dx(), b.Min.Y+i/b.Dx()
		r, g, bl, a := img.At(x, y).RGBA()
		seen[color.RGBA64{uint16(r), uint16(g), uint16(bl), uint16(a)}] = true
	}
	return len(seen)
}
