package plots

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"github.com/ccn-go/ccn/arch"
)

// methodColor returns the one colour of method m in every figure, from its
// entry in the registry of methods (arch.Info).
func methodColor(m arch.Method) (color.RGBA, bool) {
	info, ok := arch.Info(m)
	return info.Color, ok
}

// Methods returns the method names with a colour, sorted.
func Methods() []string {
	var names []string
	for _, m := range arch.Methods() {
		names = append(names, string(m))
	}
	sort.Strings(names)
	return names
}

// normalizeMethod maps a method or a label such as "T-BPTT" or "CCN" to its
// method name: lower case, letters only.
func normalizeMethod(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// MethodColor returns the colour of method: its name in any case ("snap1"),
// or with case and punctuation ignored ("T-BPTT" is TBPTT). It returns an
// error for an unknown method.
func MethodColor(method string) (color.RGBA, error) {
	c, ok := methodColor(arch.Method(strings.ToLower(method)))
	if !ok {
		c, ok = methodColor(arch.Method(normalizeMethod(method)))
	}
	if !ok {
		return color.RGBA{}, fmt.Errorf("plots: unknown method %q (want one of %s)", method, strings.Join(Methods(), ", "))
	}
	return c, nil
}

// Shade returns the i-th of n shades of base, from light (i = 0) to dark
// (i = n−1); with n = 1 it returns base. The tint mixes base with up to 55%
// white and the shade with up to 45% black:
//
//	s = i/(n−1) ∈ [0, 1]
//	c = mix(white, base, 0.45 + 1.1·s)   for s ≤ 0.5
//	c = mix(base, black, 0.9·(s − 0.5))  for s > 0.5
func Shade(base color.RGBA, i, n int) color.RGBA {
	if n < 1 || i < 0 || i >= n {
		panic(fmt.Sprintf("plots: shade %d of %d", i, n))
	}
	if n == 1 {
		return base
	}
	s := float64(i) / float64(n-1)
	white := color.RGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}
	black := color.RGBA{A: 0xFF}
	if s <= 0.5 {
		return mix(white, base, 0.45+1.1*s)
	}
	return mix(base, black, 0.9*(s-0.5))
}

// mix returns (1−w)·a + w·b, channel by channel.
func mix(a, b color.RGBA, w float64) color.RGBA {
	ch := func(x, y uint8) uint8 { return uint8(float64(x)*(1-w) + float64(y)*w + 0.5) }
	return color.RGBA{R: ch(a.R, b.R), G: ch(a.G, b.G), B: ch(a.B, b.B), A: 0xFF}
}

// translucent returns c with alpha a, premultiplied as color.RGBA requires.
func translucent(c color.RGBA, a uint8) color.RGBA {
	f := float64(a) / 255
	return color.RGBA{R: uint8(float64(c.R) * f), G: uint8(float64(c.G) * f), B: uint8(float64(c.B) * f), A: a}
}

// methodKey returns the name of a method with a colour (MethodColor knows
// it): the method in lower case ("snap1"), else normalized ("T-BPTT").
func methodKey(m string) string {
	if _, ok := methodColor(arch.Method(strings.ToLower(m))); ok {
		return strings.ToLower(m)
	}
	return normalizeMethod(m)
}

// assignColors returns a colour per item: the colour of its method, or, when
// several items share a method, shades of it in their order of appearance.
func assignColors(fig string, methods []string) ([]color.RGBA, error) {
	count := map[string]int{}
	for _, m := range methods {
		if m == "" {
			return nil, missing(fig, "a series has no method")
		}
		if _, err := MethodColor(m); err != nil {
			return nil, err
		}
		count[methodKey(m)]++
	}
	seen := map[string]int{}
	out := make([]color.RGBA, len(methods))
	for i, m := range methods {
		nm := methodKey(m)
		base, _ := methodColor(arch.Method(nm))
		out[i] = Shade(base, seen[nm], count[nm])
		seen[nm]++
	}
	return out, nil
}

// mustColor is methodColor for a built-in method.
func mustColor(m arch.Method) color.RGBA {
	c, ok := methodColor(m)
	if !ok {
		panic(fmt.Sprintf("plots: method %s has no entry in the registry", m))
	}
	return c
}
