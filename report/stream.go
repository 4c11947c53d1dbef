package report

import (
	"fmt"
	"slices"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/plots"
)

// Default stretch of the stream picture.
const (
	DefaultStreamSteps = 600
	DefaultStreamSeed  = 0
)

// Stream draws the paper's Figure 3: the first steps of the trace
// patterning stream of seed (the paper's setting, §4) as an image of its
// observations, with the true return under it. It needs no results.
func Stream(steps int, seed uint64) (Figure, error) {
	if steps < 1 {
		return Figure{}, missing(NameStream, "no steps asked for (%d)", steps)
	}
	e := env.NewTracePatterning(env.TraceConfig{}, seed)
	obs := make([][]float64, steps)
	returns := make([]float64, steps)
	x := make([]float64, e.ObservationSize())
	for t := range steps {
		_, returns[t] = e.Next(x)
		obs[t] = slices.Clone(x)
	}
	g, err := plots.Stream(obs, returns, nil)
	if err != nil {
		return Figure{}, err
	}
	cfg := e.Config()
	return Figure{Name: NameStream, Drawer: g, Caption: fmt.Sprintf(
		"Experience figure: the first %d steps of the trace patterning stream (seed %d). Rows: the six conditioned-stimulus bits "+
			"(three on in a pattern, 10 of the 20 patterns followed by the US), the unconditioned stimulus US (the cumulant), "+
			"five distractor bits; ISI %d to %d steps, ITI %d to %d steps. Below: the true return G_t with γ = %g, the target of every learner.",
		steps, seed, cfg.ISIMin, cfg.ISIMax, cfg.ITIMin, cfg.ITIMax, cfg.Gamma)}, nil
}
