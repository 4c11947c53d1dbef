package report

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/plots"
)

// baselines caches the best constant prediction's error per stream (the
// resolved configuration of a run, as JSON): several figures draw it.
var baselines sync.Map

// Baseline is the error of the best constant prediction, against which a
// learner's error reads: a learner whose error stays above it has learned
// nothing a constant could not. It is the variance of the return G_t over
// the final error window of each of g's complete final runs, averaged over
// the runs (summary.json's return_variance), or, for runs written before
// summary.json held it, the variance of the returns over the whole stream
// of g's first run (env.ConstantBaseline, computed once per stream).
type Baseline struct {
	MSE    float64
	Window bool // MSE is the mean of return_variance over Runs runs
	Runs   int
	Seed   uint64
	Steps  int
}

// baseline computes (or recalls) the Baseline of g.
func baseline(g Group) (Baseline, error) {
	if len(g.Runs) == 0 {
		return Baseline{}, fmt.Errorf("report: %s/%s group %s: no complete run for the constant baseline", g.Study, g.Scale, g.Name)
	}
	cfg := g.Runs[0].Summary.Config
	b := Baseline{Seed: cfg.Seed, Steps: cfg.Steps, Runs: len(g.Runs), Window: true}
	for _, run := range g.Runs {
		if !(run.Summary.ReturnVariance > 0) {
			b.Window = false
			break
		}
		b.MSE += run.Summary.ReturnVariance
	}
	if b.Window {
		b.MSE /= float64(len(g.Runs))
		b.Steps = cfg.Window
		return b, nil
	}
	b.MSE = 0
	key, err := json.Marshal(cfg)
	if err != nil {
		return Baseline{}, fmt.Errorf("report: %w", err)
	}
	if v, ok := baselines.Load(string(key)); ok {
		b.MSE = v.(float64)
		return b, nil
	}
	r, err := cfg.Resolve()
	if err != nil {
		return Baseline{}, fmt.Errorf("report: the stored configuration of %s: %w", g.Runs[0].Dir, err)
	}
	_, b.MSE = env.ConstantBaseline(r.NewEnv(), cfg.Steps)
	baselines.Store(string(key), b.MSE)
	return b, nil
}

// reference is b as a reference line.
func (b Baseline) reference() plots.Reference { return plots.Baseline(b.MSE) }

// text is b's sentence in a caption.
func (b Baseline) text() string {
	if b.Window {
		return fmt.Sprintf("Dashed grey line: the error of the best constant prediction, %.4g, the variance of the return over the last %s steps of each run, mean over %s",
			b.MSE, thousands(b.Steps), seedsText(b.Runs))
	}
	return fmt.Sprintf("Dashed grey line: the error of the best constant prediction, %.4g, the variance of the return over the %s steps of the stream of seed %d",
		b.MSE, thousands(b.Steps), b.Seed)
}

// subtitle is the second title line of an error figure: scale and run
// length (the plots add the number of seeds).
func subtitle(g Group) string {
	return fmt.Sprintf("%s scale, %s steps", g.Scale, stepsText(g.Config.Steps))
}
