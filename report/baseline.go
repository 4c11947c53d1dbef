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

// Baseline is the error of the best constant prediction on the stream of g's
// first complete final run: the variance of the returns G_t over the run's
// steps (env.ConstantBaseline). A learner whose error stays above it has
// learned nothing a constant could not.
type Baseline struct {
	MSE   float64
	Seed  uint64
	Steps int
}

// baseline computes (or recalls) the Baseline of g.
func baseline(g Group) (Baseline, error) {
	if len(g.Runs) == 0 {
		return Baseline{}, fmt.Errorf("report: %s/%s group %s: no complete run for the constant baseline", g.Study, g.Scale, g.Name)
	}
	cfg := g.Runs[0].Summary.Config
	key, err := json.Marshal(cfg)
	if err != nil {
		return Baseline{}, fmt.Errorf("report: %w", err)
	}
	b := Baseline{Seed: cfg.Seed, Steps: cfg.Steps}
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
	return fmt.Sprintf("Dashed grey line: the error of the best constant prediction, %.4g, the variance of the return over the %s steps of the stream of seed %d",
		b.MSE, thousands(b.Steps), b.Seed)
}

// subtitle is the second title line of an error figure: scale and run
// length (the plots add the number of seeds).
func subtitle(g Group) string {
	return fmt.Sprintf("%s scale, %s steps", g.Scale, stepsText(g.Config.Steps))
}
