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
// RunFunc computes; a later run of a checked architecture gets the first
// call's result.
func gatedRun(gate func(experiments.Resolved) error) RunFunc {
	if gate == nil {
		return func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error) {
			return experiments.Run(ctx, cfg, dir, experiments.Options{})
		}
	}
	var mu sync.Mutex
	checked := map[string]error{}
	once := func(c experiments.Resolved) error {
		key := architectureKey(c)
		mu.Lock()
		err, ok := checked[key]
		mu.Unlock()
		if ok {
			return err
		}
		err = gate(c)
		mu.Lock()
		checked[key] = err
		mu.Unlock()
		return err
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
