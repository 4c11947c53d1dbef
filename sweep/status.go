package sweep

import (
	"cmp"
	"maps"
	"slices"

	"github.com/ccn-go/ccn/experiments"
)

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
	// run's own speed: the seconds per step of the complete (not
	// diverged) runs in the directory of its configuration and length (its
	// candidate, any seed), or where it has none, of its configuration at
	// any length, or where it has none or waits for its group's selection,
	// of its group, or where its group has none, of the same learner in
	// the plan's other groups (learnerOf: the same network, optimizer and
	// input, whatever its step size, seed, length or trace-patterning
	// intervals); each run's CPU seconds where it recorded them
	// (experiments.Summary.CPUSeconds), else its wall seconds. Runs of the
	// same length come first because they ran the same code over the same
	// stretch of the stream (a 10M-step run's speed need not be a 30M-step
	// one's). Unmeasured is the part of Steps without such a run, left out
	// of Seconds.
	Seconds    float64
	Unmeasured int64
}

// StatusOf counts the runs of plan in out (a run that failed maxAttempts
// times is Failed; maxAttempts ≤ 0 means DefaultMaxAttempts) and estimates
// the time left.
func StatusOf(plan Plan, out string, maxAttempts int) Status {
	look := cachedLook(out, maxAttempts)
	var st Status
	// Steps still to compute and the speeds measured, by group, candidate
	// and length (a candidate's entry at any length has steps -1, a
	// group's has candidate -1 too).
	type key struct {
		group, candidate int
		steps            int64
	}
	left := map[key]int64{}
	speed := map[key]pace{}
	// The learner of each entry of left, and the speeds by learner.
	learners := map[key]experiments.RunConfig{}
	learnerSpeed := map[experiments.RunConfig]pace{}
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
				n := int64(o.Summary.Steps)
				for _, k := range []key{{t.Group, -1, -1}, {t.Group, t.Candidate, -1}, {t.Group, t.Candidate, n}} {
					speed[k] = speed[k].add(sec, n)
				}
				l := learnerOf(t.Config.Config())
				learnerSpeed[l] = learnerSpeed[l].add(sec, n)
			}
		case Diverged:
			c.Diverged++
		case Failed:
			c.Failed++
		default:
			c.Pending++
			n := int64(t.Config.Config().Steps)
			k := key{t.Group, t.Candidate, n}
			left[k] += n
			learners[k] = learnerOf(t.Config.Config())
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
		// lengths; the first one's stand for them, at the group's speed.
		for _, t := range plan.FinalTasks(g, 0) {
			if !seen[t.ID] {
				st.Waiting++
				k := key{g, -1, -1}
				left[k] += int64(t.Config.Config().Steps)
				learners[k] = learnerOf(t.Config.Config())
			}
		}
	}
	keys := slices.SortedFunc(maps.Keys(left), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.candidate, b.candidate), cmp.Compare(a.steps, b.steps))
	})
	for _, k := range keys { // in order, for the same sum every time
		n := left[k]
		st.Steps += n
		sp := speed[k]
		if sp.steps == 0 {
			sp = speed[key{k.group, k.candidate, -1}]
		}
		if sp.steps == 0 {
			sp = speed[key{k.group, -1, -1}]
		}
		if sp.steps == 0 {
			sp = learnerSpeed[learners[k]]
		}
		if sp.steps == 0 {
			st.Unmeasured += n
			continue
		}
		st.Seconds += float64(n) * sp.seconds / float64(sp.steps)
	}
	return st
}

// learnerOf is c without the settings that leave a step's work as it is:
// the seed, the step sizes and rates (α, λ, γ, ε, the normalization decay,
// the auto-freezing criterion's threshold and decay), the run's length, its
// logging, and trace patterning's intervals. What is left (method, sizes,
// stage schedule, optimizer, environment and its input count, precision)
// sets the work per step; a setting added later is kept, so an estimate
// never borrows a speed it should not.
func learnerOf(c experiments.RunConfig) experiments.RunConfig {
	c.Seed, c.Steps = 0, 0
	c.StepSize, c.Lambda, c.Gamma, c.Epsilon, c.NormDecay = 0, nil, 0, 0, 0
	c.StageThreshold, c.StageDecay = 0, 0
	c.Window, c.LogEvery = 0, 0
	c.ISIMin, c.ISIMax, c.ITIMin, c.ITIMax = 0, 0, 0, 0
	return c
}

// pace is the seconds and steps of complete runs, summed.
type pace struct {
	seconds float64
	steps   int64
}

func (p pace) add(seconds float64, steps int64) pace {
	return pace{p.seconds + seconds, p.steps + steps}
}
