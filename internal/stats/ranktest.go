package stats

import (
	"math"
	"sort"
)

// MannWhitney is the two-sided Mann-Whitney U (Wilcoxon rank-sum) test of
// whether values of x tend to be smaller or larger than values of y, which
// does not assume normality. With the ranks r of x in the pooled sample (ties
// share their mean rank),
//
//	U = Σ r − n_x(n_x + 1)/2          (the number of pairs with x > y, ties 1/2)
//	σ² = n_x·n_y/12 · (n + 1 − Σ(t³ − t)/(n(n − 1)))   t: sizes of tied groups
//	z = (|U − n_x·n_y/2| − 1/2)/σ     p = erfc(z/√2)
//
// the normal approximation with tie and continuity correction (good from
// about eight values per sample). It returns U and p: U below n_x·n_y/2
// means x tends to be smaller than y. p is NaN when either sample is empty or
// every value is tied.
func MannWhitney(x, y []float64) (u, p float64) {
	nx, ny := len(x), len(y)
	if nx == 0 || ny == 0 {
		return math.NaN(), math.NaN()
	}
	type obs struct {
		v   float64
		inX bool
	}
	all := make([]obs, 0, nx+ny)
	for _, v := range x {
		all = append(all, obs{v, true})
	}
	for _, v := range y {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	n := float64(nx + ny)
	var rx, ties float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].inX {
				rx += rank
			}
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	fx, fy := float64(nx), float64(ny)
	u = rx - fx*(fx+1)/2
	v := fx * fy / 12 * (n + 1 - ties/(n*(n-1)))
	if !(v > 0) {
		return u, math.NaN()
	}
	z := (math.Abs(u-fx*fy/2) - 0.5) / math.Sqrt(v)
	if z < 0 {
		z = 0
	}
	return u, math.Erfc(z / math.Sqrt2)
}
