package experiments

import "github.com/ccn-go/ccn/env"

// stepper drives a TD(λ) agent along an environment's stream, the loop Run
// and Probe share: one observation buffer, each step's cumulant to the
// agent, and the end of an episode where the environment is episodic.
type stepper struct {
	e        env.Env
	a        agent
	x        []float64
	episodic env.Episodic
}

func newStepper(e env.Env, a agent) *stepper {
	s := &stepper{e: e, a: a, x: make([]float64, e.ObservationSize())}
	s.episodic, _ = e.(env.Episodic)
	return s
}

// start reads the first observation and starts the agent on it; it returns
// the agent's prediction and the return it predicts.
func (s *stepper) start() (y, ret float64) {
	_, ret = s.e.Next(s.x)
	y = s.a.Start(s.x)
	s.endEpisode()
	return y, ret
}

// step reads the next observation and steps the agent with its cumulant;
// ok is false when the agent's update diverged.
func (s *stepper) step() (y, ret float64, ok bool) {
	var c float64
	c, ret = s.e.Next(s.x)
	if y, ok = s.a.Step(s.x, c); !ok {
		return y, ret, false
	}
	s.endEpisode()
	return y, ret, true
}

func (s *stepper) endEpisode() {
	if s.episodic != nil && s.episodic.Done() {
		s.a.EndEpisode()
	}
}
