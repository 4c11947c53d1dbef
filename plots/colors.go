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

// normalizeMethod maps a method or a label such as "T-BPTT" or "CCN" to
// lower-case letters and digits only ("tbptt", "ccn").
func normalizeMethod(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// lookupMethod returns the method of the registry of methods that s names:
// its name in any case ("snap1"), its label ("SnAp-1", "Linear (no
// memory)"), or either with case and punctuation ignored ("T-BPTT" is
// tbptt).
func lookupMethod(s string) (arch.Method, bool) {
	if m := arch.Method(strings.ToLower(s)); m.Known() {
		return m, true
	}
	n := normalizeMethod(s)
	for _, m := range arch.Methods() {
		info, _ := arch.Info(m)
		if strings.EqualFold(info.Label, s) || normalizeMethod(string(m)) == n || normalizeMethod(info.Label) == n {
			return m, true
		}
	}
	return "", false
}

// MethodColor returns the colour of method: its name or its label in the
// registry of methods, in any case, with punctuation ignored ("T-BPTT" is
// tbptt). It returns an error for an unknown method.
func MethodColor(method string) (color.RGBA, error) {
	m, ok := lookupMethod(method)
	if !ok {
		return color.RGBA{}, fmt.Errorf("plots: unknown method %q (want one of %s)", method, strings.Join(Methods(), ", "))
	}
	c, _ := methodColor(m)
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

// methodKey returns the method a series names (lookupMethod), or its
// name as given when it names none.
func methodKey(m string) string {
	if k, ok := lookupMethod(m); ok {
		return string(k)
	}
	return m
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
