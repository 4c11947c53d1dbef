package experiments

import (
	"context"
	"fmt"

	"github.com/ccn-go/ccn/env/catalog"
)

// Probe runs the learning loop of r (its environment, learner and TD(λ)
// agent, as Run does, without the gate and without writing anything) for
// r's steps and calls probe after every `every` steps with the number of
// steps taken and the learner, which probe may read but must not change.
// It stops at the first error of probe, at divergence (an error wrapping
// ErrDiverged) or when ctx is done.
func Probe(ctx context.Context, r Resolved, every int, probe func(steps int, learner any) error) error {
	if every < 1 {
		panic(fmt.Sprintf("experiments: Probe every %d steps", every))
	}
	cfg := r.Config()
	e := r.NewEnv()
	defer catalog.Close(e)
	a, learner := r.newAgent(e.ObservationSize())
	s := newStepper(e, a)
	s.start()
	for steps := 1; steps <= cfg.Steps; steps++ {
		if steps > 1 {
			if _, _, ok := s.step(); !ok {
				return fmt.Errorf("experiments: probe: step %d: %w", steps, ErrDiverged)
			}
		}
		if steps%every != 0 {
			continue
		}
		if !a.ParamsFinite() {
			return fmt.Errorf("experiments: probe: step %d: %w", steps, ErrDiverged)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := probe(steps, learner); err != nil {
			return err
		}
	}
	return nil
}
