package sweep

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/ccn-go/ccn/compare"
	"github.com/ccn-go/ccn/experiments"
)

// defaultGate is the gate of a Pool whose Gate is nil: the gradient gate of
// ccn run and ccn sweep.
var defaultGate = compare.RunGate

// gatedRun returns the RunFunc of a Pool without its own Run:
// experiments.Run with gate as experiments.Options.Gate (none if gate is
// nil), called once per architecture (architectureKey) for all the runs the
// RunFunc computes, even when several start at once; every run of an
// architecture gets that call's result.
func gatedRun(gate func(experiments.Resolved) error) RunFunc {
	if gate == nil {
		return func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
			return experiments.Run(ctx, cfg, dir, experiments.Options{})
		}
	}
	// One entry per architecture, its check run once: runs of the same
	// architecture that start together wait for the first one's check.
	type result struct {
		once sync.Once
		err  error
	}
	var mu sync.Mutex
	checked := map[string]*result{}
	once := func(c experiments.Resolved) error {
		key := architectureKey(c)
		mu.Lock()
		r, ok := checked[key]
		if !ok {
			r = new(result)
			checked[key] = r
		}
		mu.Unlock()
		r.once.Do(func() { r.err = gate(c) })
		return r.err
	}
	return func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
		return experiments.Run(ctx, cfg, dir, experiments.Options{Gate: once})
	}
}

// architectureKey identifies what the gradient gate checks: the resolved
// configuration without the settings that do not change the gradient
// computation (seed, steps, step size, optimizer, window, log interval).
func architectureKey(r experiments.Resolved) string {
	c := r.Config()
	c.Seed, c.Steps, c.StepSize, c.Window, c.LogEvery, c.Optimizer = 0, 0, 0, 0, 0, ""
	b, _ := json.Marshal(c)
	return string(b)
}
