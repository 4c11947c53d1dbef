package sweep

// StageCount counts the runs of one stage of a plan by their state.
type StageCount struct {
	Done, Diverged, Failed, Pending int
}

// Total is the number of runs counted.
func (c StageCount) Total() int { return c.Done + c.Diverged + c.Failed + c.Pending }

// Status is how far a plan's runs in a results directory have come, and an
// estimate of what is left, read from the directory alone (nothing is
// written).
type Status struct {
	// Sweep counts the sweep stage's runs.
	Sweep StageCount
	// Final counts the final runs of the groups whose selection is
	// settled; a final run that is a sweep run (same configuration) is
	// counted in Sweep only.
	Final StageCount
	// Waiting counts the final runs of the groups whose selection is not
	// settled yet (their configuration is not known), sweep runs left out.
	Waiting int
	// Steps is the number of steps still to compute: those of the pending
	// and the waiting runs.
	Steps int64
	// Seconds estimates the seconds of Steps, one run at a time, at each
	// group's own speed: the seconds per step of its complete (not
	// diverged) runs in the directory, each run's CPU seconds where it
	// recorded them (experiments.Summary.CPUSeconds), else its wall
	// seconds. Unmeasured is the part of Steps of groups without such a
	// run, left out of Seconds.
	Seconds    float64
	Unmeasured int64
}

// StatusOf counts the runs of plan in out (a run that failed maxAttempts
// times is Failed; maxAttempts ≤ 0 means DefaultMaxAttempts) and estimates
// the time left.
func StatusOf(plan Plan, out string, maxAttempts int) Status {
	look := cachedLook(out, maxAttempts)
	var st Status
	left := make([]int64, len(plan.Groups)) // steps still to compute, by group
	speed := make([]struct {
		seconds float64
		steps   int64
	}, len(plan.Groups))
	seen := map[string]bool{}
	count := func(c *StageCount, t Task) {
		if seen[t.ID] {
			return
		}
		seen[t.ID] = true
		switch o := look(t.ID); o.State {
		case Done:
			c.Done++
			sec := o.Summary.CPUSeconds
			if sec <= 0 {
				sec = o.Summary.WallSeconds
			}
			if o.Summary.Steps > 0 && sec > 0 {
				speed[t.Group].seconds += sec
				speed[t.Group].steps += int64(o.Summary.Steps)
			}
		case Diverged:
			c.Diverged++
		case Failed:
			c.Failed++
		default:
			c.Pending++
			left[t.Group] += int64(t.Config.Config().Steps)
		}
	}
	for g := range plan.Groups {
		for _, t := range plan.SweepTasks(g) {
			count(&st.Sweep, t)
		}
	}
	for g := range plan.Groups {
		if best, ok := plan.Best(g, look); ok {
			for _, t := range plan.FinalTasks(g, best) {
				count(&st.Final, t)
			}
			continue
		}
		// Not settled: every candidate has final runs of the same seeds and
		// lengths; the first one's stand for them.
		for _, t := range plan.FinalTasks(g, 0) {
			if !seen[t.ID] {
				st.Waiting++
				left[g] += int64(t.Config.Config().Steps)
			}
		}
	}
	for g, n := range left {
		st.Steps += n
		if speed[g].steps == 0 {
			st.Unmeasured += n
			continue
		}
		st.Seconds += float64(n) * speed[g].seconds / float64(speed[g].steps)
	}
	return st
}
