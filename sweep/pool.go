package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
)

// RunFunc computes one run into dir (see experiments.Run): nil or
// experiments.ErrDiverged with the written summary, another error otherwise.
type RunFunc func(ctx context.Context, cfg experiments.Resolved, dir string) (experiments.Summary, error)

// Pool computes a plan's runs on a number of local workers. Each run is
// computed by one goroutine (the learners are single-threaded).
type Pool struct {
	// Workers is the number of runs computed at once; 0 means 1.
	Workers int
	// Run computes one run; nil means experiments.Run behind the gradient
	// gate (Gate, NoGate). A Run of one's own is called as it is: the pool
	// gates only the runs it computes itself.
	Run RunFunc
	// Gate is the check before each run of a pool without Run
	// (experiments.Options.Gate); nil means compare.RunGate, the gate of ccn
	// run and ccn sweep, which proves the run's hand-written gradients equal
	// the autodiff reference's on a stretch of the run's own stream. It is
	// called once per architecture per Execute (runs that differ only in
	// seed, steps, step size, optimizer, window or log interval share the
	// first call's result); an error fails the run before anything is
	// written.
	Gate func(experiments.Resolved) error
	// NoGate computes the runs of a pool without Run ungated (Gate is then
	// unused), as ccn sweep --no-gate does.
	NoGate bool
	// MaxAttempts is the number of tries of a failing run, in this and
	// later invocations together; 0 means DefaultMaxAttempts.
	MaxAttempts int
	// RetryFailed forgets earlier failures of the plan's runs.
	RetryFailed bool
	// Progress receives the overall progress; nil for none.
	Progress io.Writer
	// Terminal draws a progress bar instead of periodic lines.
	Terminal bool
	// Interval is the time between progress lines; 0 means DefaultInterval.
	Interval time.Duration
	// Numerics is the numerics of the build that computes the runs
	// (experiments.Summary.NumericsID); "" means this binary's,
	// lanes.Numerics(). A complete run of other numerics is refused
	// (*NumericsError) unless RecomputeMismatched.
	Numerics string
	// RecomputeMismatched recomputes the complete runs of other numerics
	// instead of refusing them.
	RecomputeMismatched bool
	// SweepOnly computes the sweep stage only, no final run (a group
	// without a sweep stage has nothing to compute): a long study can check
	// its step sizes everywhere before any final run starts.
	SweepOnly bool
}

// Report counts what an Execute call found and did. Runs are counted once
// even when several groups or both stages share them.
type Report struct {
	Found    int // runs already settled (complete, diverged or failed) when first looked at
	Ran      int // runs computed now, diverged ones included
	Diverged int // runs computed now that diverged
	Failed   int // failed attempts now
	Busy     int // runs skipped because another process held their lock
	Waiting  int // groups whose final stage could not start (sweep not settled)
	// Mismatched counts the complete runs of other numerics queued to be
	// recomputed (RecomputeMismatched).
	Mismatched int
}

// result is what a worker reports for one task.
type result struct {
	task        Task
	outcome     Outcome
	ran         bool // the run was computed (or attempted) here
	busy        bool
	interrupted bool
	err         error // an error of the results directory itself: stops the sweep
}

// Execute saves the plan into out and computes every pending run: the sweep
// stage of each group, then, as soon as a group's sweep stage is settled, the
// selected candidate over the final seeds. Runs complete on disk are never
// recomputed. A failed run is recorded in its directory and retried until
// MaxAttempts; it does not stop the others. If ctx is cancelled, Execute stops
// the running runs (leaving them pending) and returns ctx's error.
//
// A complete run computed by a build of other numerics than p.Numerics is
// refused with a *NumericsError before anything is computed (or, if it is
// found only once a group's sweep stage settles, when it is found, stopping
// the sweep), unless p.RecomputeMismatched, which computes it again.
func (p Pool) Execute(ctx context.Context, plan Plan, out string) (Report, error) {
	numerics := p.Numerics
	if numerics == "" {
		numerics = lanes.Numerics()
	}
	run := p.Run
	if run == nil {
		gate := p.Gate
		switch {
		case p.NoGate:
			gate = nil
		case gate == nil:
			gate = defaultGate
		}
		run = gatedRun(gate)
	}
	maxAttempts := p.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = DefaultMaxAttempts
	}
	s := newScheduler(&plan, out, maxAttempts, p.RetryFailed, numerics, p.RecomputeMismatched, p.SweepOnly)
	if err := s.mismatchError(); err != nil {
		return s.report, err
	}
	if err := SavePlan(out, plan); err != nil {
		return Report{}, err
	}
	// A process killed while it checked a run's directory
	// (experiments.CheckDir) leaves its probe in runs/.
	removeStale(filepath.Join(out, RunsDir))
	prog := newProgress(p.Progress, p.Terminal, plan.Study+"/"+plan.Scale, len(s.queue)+s.estimate(), p.Interval)

	workers := max(1, p.Workers)
	jobs := make(chan Task)
	results := make(chan result)
	for range workers {
		go func() {
			for t := range jobs {
				results <- runOne(ctx, out, t, run, maxAttempts, numerics, p.RecomputeMismatched)
			}
		}()
	}
	var ticks <-chan time.Time
	if prog != nil && prog.bar == nil {
		tk := time.NewTicker(prog.interval)
		defer tk.Stop()
		ticks = tk.C
	}
	done := ctx.Done()
	stopping := false
	inflight := 0
	var fatal error
	for {
		var send chan Task
		var next Task
		if len(s.queue) > 0 && !stopping && fatal == nil {
			send, next = jobs, s.queue[0]
		}
		if send == nil && inflight == 0 {
			break
		}
		select {
		case send <- next:
			s.queue = s.queue[1:]
			inflight++
		case r := <-results:
			inflight--
			before := s.estimate() + len(s.queue)
			if err := s.handle(r); err != nil && fatal == nil {
				fatal = err
			}
			if err := s.mismatchError(); err != nil && fatal == nil {
				fatal = err
			}
			settled := r.err == nil && !r.interrupted && !r.busy && r.outcome.State != Pending
			retried := r.err == nil && !r.interrupted && !r.busy && r.outcome.State == Pending
			if settled {
				prog.finished(r.outcome)
			}
			delta := s.estimate() + len(s.queue) - before
			if retried {
				delta-- // back in the queue: not a new run
			}
			if r.busy {
				delta-- // another process computes it
			}
			prog.changeTotal(delta)
		case <-done:
			done, stopping = nil, true // running runs see ctx and return
		case <-ticks:
			prog.tick(false)
		}
	}
	close(jobs)
	prog.finish()
	for g := range plan.Groups {
		if !s.finalized[g] && !p.SweepOnly {
			s.report.Waiting++
		}
	}
	switch {
	case fatal != nil:
		return s.report, fatal
	case ctx.Err() != nil:
		return s.report, ctx.Err()
	}
	return s.report, nil
}

// runOne computes one task under its lock.
func runOne(ctx context.Context, out string, t Task, run RunFunc, maxAttempts int, numerics string, recompute bool) result {
	if ctx.Err() != nil {
		return result{task: t, interrupted: true}
	}
	lock, err := tryLock(out, t.ID)
	if errors.Is(err, errBusy) {
		return result{task: t, busy: true}
	}
	if err != nil {
		return result{task: t, err: fmt.Errorf("sweep: lock run %s: %w", t.ID, err)}
	}
	defer lock.unlock()
	// Another process may have completed it since we looked.
	if o := Look(out, t.ID, maxAttempts); o.State == Done || o.State == Diverged {
		if !recompute || !mismatched(o, numerics) {
			return result{task: t, outcome: o}
		}
		if err := forget(out, t.ID); err != nil {
			return result{task: t, err: fmt.Errorf("sweep: recompute run %s: %w", t.ID, err)}
		}
	}
	dir := RunDir(out, t.ID)
	removeStale(dir)
	sum, err := safeRun(ctx, run, t.Config, dir)
	switch {
	case err == nil || errors.Is(err, experiments.ErrDiverged):
		clearFailure(dir)
		o := Outcome{State: Done, Summary: sum}
		if sum.Diverged || err != nil {
			o.State = Diverged
		}
		return result{task: t, outcome: o, ran: true}
	case ctx.Err() != nil:
		return result{task: t, ran: true, interrupted: true}
	}
	n, werr := recordFailure(dir, t.Config, err)
	if werr != nil {
		return result{task: t, err: fmt.Errorf("sweep: record failure of run %s: %w", t.ID, werr)}
	}
	o := Outcome{State: Pending, Attempts: n, Error: err.Error()}
	if n >= maxAttempts {
		o.State = Failed
	}
	return result{task: t, outcome: o, ran: true}
}

// safeRun calls run, turning a panic into an error so that one broken
// configuration does not stop the sweep.
func safeRun(ctx context.Context, run RunFunc, cfg experiments.Resolved, dir string) (s experiments.Summary, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return run(ctx, cfg, dir)
}

// scheduler holds the queue and the known outcomes of an Execute call.
type scheduler struct {
	plan        *Plan
	out         string
	maxAttempts int
	retry       bool
	numerics    string
	recompute   bool
	mismatch    []Outcome // complete runs of other numerics, refused
	mismatchIDs []string
	outcomes    map[string]Outcome
	queued      map[string]bool // queued, running or computed in this call
	queue       []Task
	finalized   []bool
	sweepOnly   bool
	report      Report
}

func newScheduler(plan *Plan, out string, maxAttempts int, retry bool, numerics string, recompute, sweepOnly bool) *scheduler {
	s := &scheduler{plan: plan, out: out, maxAttempts: maxAttempts, retry: retry, numerics: numerics, recompute: recompute, sweepOnly: sweepOnly,
		outcomes: map[string]Outcome{}, queued: map[string]bool{}, finalized: make([]bool, len(plan.Groups))}
	for g := range plan.Groups {
		for _, t := range plan.SweepTasks(g) {
			s.enqueue(t)
		}
	}
	for g := range plan.Groups {
		s.tryFinal(g)
	}
	return s
}

// look returns the outcome of a run, reading its directory the first time.
func (s *scheduler) look(id string) Outcome {
	if o, ok := s.outcomes[id]; ok {
		return o
	}
	o := Look(s.out, id, s.maxAttempts)
	if s.retry && o.Attempts > 0 {
		clearFailure(RunDir(s.out, id))
		o = Outcome{State: Pending}
	}
	if mismatched(o, s.numerics) {
		if s.recompute {
			s.report.Mismatched++
			o = Outcome{State: Pending} // runOne removes its summary
		} else {
			s.mismatch = append(s.mismatch, o)
			s.mismatchIDs = append(s.mismatchIDs, id)
		}
	}
	if o.State != Pending {
		s.report.Found++
	}
	s.outcomes[id] = o
	return o
}

// mismatchError returns a *NumericsError if complete runs of other numerics
// were found and are not to be recomputed.
func (s *scheduler) mismatchError() error {
	if len(s.mismatch) == 0 {
		return nil
	}
	return &NumericsError{Out: s.out, Runs: len(s.mismatch), Example: s.mismatchIDs[0],
		Stored: s.mismatch[0].Summary.NumericsID(), Numerics: s.numerics}
}

// enqueue queues t if it is pending and not queued yet.
func (s *scheduler) enqueue(t Task) {
	if s.queued[t.ID] || s.look(t.ID).State != Pending {
		return
	}
	s.queued[t.ID] = true
	s.queue = append(s.queue, t)
}

// tryFinal queues the final stage of group g once its selection is settled.
func (s *scheduler) tryFinal(g int) {
	if s.finalized[g] || s.sweepOnly {
		return
	}
	best, ok := s.plan.Best(g, s.look)
	if !ok {
		return
	}
	s.finalized[g] = true
	for _, t := range s.plan.FinalTasks(g, best) {
		s.enqueue(t)
	}
}

// estimate is the number of final runs still expected from groups whose
// selection is not settled: the final seeds that are not sweep seeds.
func (s *scheduler) estimate() int {
	sweep := map[uint64]bool{}
	for _, seed := range s.plan.SweepSeeds {
		sweep[seed] = true
	}
	n := 0
	for g := range s.plan.Groups {
		if s.finalized[g] || s.sweepOnly {
			continue
		}
		for _, seed := range s.plan.FinalSeeds {
			if !sweep[seed] {
				n++
			}
		}
	}
	return n
}

// handle records a worker's result and queues what it unlocks.
func (s *scheduler) handle(r result) error {
	switch {
	case r.err != nil:
		return r.err
	case r.interrupted:
		return nil
	case r.busy:
		s.report.Busy++
		return nil
	}
	if r.ran {
		switch r.outcome.State {
		case Done:
			s.report.Ran++
		case Diverged:
			s.report.Ran++
			s.report.Diverged++
		default:
			s.report.Failed++
		}
	}
	s.outcomes[r.task.ID] = r.outcome
	if r.outcome.State == Pending { // failed with attempts left: try again later
		s.queue = append(s.queue, r.task)
		return nil
	}
	for g := range s.plan.Groups {
		s.tryFinal(g)
	}
	return nil
}
