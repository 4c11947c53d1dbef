package plots

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// decimalTicks places ticks as plot.DefaultTicks does and labels each
// labelled tick with as many decimals as the spacing d between labelled ticks
// needs, the least n with d·10ⁿ whole: DefaultTicks keeps the significant
// digits of the smallest label, so over [0.97, 1.01] it labels 1.01 "1".
type decimalTicks struct{}

func (decimalTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, t := range ts {
		if t.Label != "" {
			major = append(major, t.Value)
		}
	}
	if len(major) < 2 {
		return ts
	}
	d := major[1] - major[0]
	n := 0
	for ; n < 12; n++ {
		s := d * math.Pow10(n)
		if math.Abs(s-math.Round(s)) < 1e-6*math.Max(1, s) {
			break
		}
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', n, 64)
		}
	}
	return ts
}
