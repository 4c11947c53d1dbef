package plots

import (
	"math"
	"math/rand/v2"
)

// Synthetic results shared by the tests and examples of this package.

// synthCurve is a decaying error curve over n points with a standard error.
func synthCurve(label, method string, n int, final float64, seeds int) Curve {
	c := Curve{Label: label, Method: method, Seeds: seeds}
	for i := range n {
		s := float64(i+1) * 1e5
		m := final + 0.5*math.Exp(-float64(i)/float64(n)*4)
		c.Steps = append(c.Steps, s)
		c.Mean = append(c.Mean, m)
		c.StdErr = append(c.StdErr, 0.05*m)
	}
	return c
}

// synthStream is a trace-patterning-like stretch: a CS at step 10, a US at
// step 40, sparse distractors, and the discounted return of the US.
func synthStream(n int) (obs [][]float64, ret []float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	obs = make([][]float64, n)
	ret = make([]float64, n)
	for t := range obs {
		obs[t] = make([]float64, 12)
		if t%100 == 10 {
			obs[t][0], obs[t][2], obs[t][5] = 1, 1, 1
		}
		if t%100 == 40 {
			obs[t][6] = 1
		}
		for d := range 5 {
			if rng.Float64() < 1/(10*float64(d+1)) {
				obs[t][7+d] = 1
			}
		}
	}
	g := 0.0
	for t := n - 1; t >= 0; t-- {
		ret[t] = g
		g = obs[t][6] + 0.9*g
	}
	return obs, ret
}

// synthBias is a gradient-bias series decaying with rate 1/tau.
func synthBias(label string, tau float64) BiasSeries {
	s := BiasSeries{Label: label, Samples: 40, Seeds: 4}
	for k := 1; k <= 60; k++ {
		e := math.Exp(-float64(k) / tau)
		s.K = append(s.K, float64(k))
		s.RelErr = append(s.RelErr, e)
		s.RelErrSE = append(s.RelErrSE, 0.3*e)
		s.Cos = append(s.Cos, 1-0.8*e)
		s.CosSE = append(s.CosSE, 0.05*e)
	}
	return s
}

// synthCost is a cost series growing as params^power.
func synthCost(label, method string, power float64) CostSeries {
	s := CostSeries{Label: label, Method: method}
	for _, n := range []float64{50, 200, 800, 3200} {
		s.Params = append(s.Params, n)
		s.Micros = append(s.Micros, 0.01*math.Pow(n, power))
	}
	return s
}
