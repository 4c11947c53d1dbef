package experiments

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress reports a run's advance on a writer: a bar with steps/s, ETA and
// the current windowed error on a terminal, a short line every lineEvery
// otherwise. A nil *progress reports nothing.
type progress struct {
	w     io.Writer
	label string
	bar   *progressbar.ProgressBar
	total int
	start time.Time
	last  time.Time
	// detail, if set, describes the learner's state for the progress line
	// (stageText); it is called only when a line is written.
	detail func() string
}

const (
	barEvery  = 200 * time.Millisecond
	lineEvery = 10 * time.Second
)

func newProgress(w io.Writer, terminal bool, total int, label string) *progress {
	if w == nil {
		return nil
	}
	p := &progress{w: w, label: label, total: total, start: time.Now()}
	p.last = p.start
	if terminal {
		p.bar = progressbar.NewOptions64(int64(total),
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("steps"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(barEvery),
			progressbar.OptionClearOnFinish(),
		)
	} else {
		fmt.Fprintf(w, "%s: %d steps\n", label, total)
	}
	return p
}

// update is called every few thousand steps with the steps done and the
// current windowed error.
func (p *progress) update(step int, err float64) {
	if p == nil {
		return
	}
	now := time.Now()
	if p.bar != nil {
		if now.Sub(p.last) >= barEvery {
			p.last = now
			p.bar.Describe(fmt.Sprintf("%s, error %.5f", p.label, err))
			p.bar.Set64(int64(step))
		}
		return
	}
	if now.Sub(p.last) < lineEvery {
		return
	}
	p.last = now
	el := now.Sub(p.start).Seconds()
	rate := float64(step) / el
	eta := time.Duration(float64(p.total-step) / rate * float64(time.Second)).Round(time.Second)
	detail := ""
	if p.detail != nil {
		detail = ", " + p.detail()
	}
	fmt.Fprintf(p.w, "step %d/%d (%.0f%%) error %.5f%s, %.0f steps/s, ETA %v\n",
		step, p.total, 100*float64(step)/float64(p.total), err, detail, rate, eta)
}

func (p *progress) finish(s Summary) {
	if p == nil {
		return
	}
	if p.bar != nil {
		p.bar.Finish()
	}
	stages := ""
	if len(s.Stages) > 0 {
		stages = fmt.Sprintf(", stages froze at %v", s.Stages)
	}
	fmt.Fprintf(p.w, "done: %d steps in %.1fs (%.0f steps/s), final error %.5f, lifetime error %.5f%s, diverged %v\n",
		s.Steps, s.WallSeconds, s.StepsPerSecond, s.FinalError, s.LifetimeError, stages, s.Diverged)
}

// stageText describes a staged learner for the progress line: its learning
// stage, the steps at which the earlier ones froze and, under the auto
// schedule, the mean cosine ρ of its test (forward.AutoFreeze).
func stageText(l StageEnder) string {
	ends := l.StageEnds()
	s := fmt.Sprintf("stage %d", len(ends))
	if len(ends) > 0 {
		s += fmt.Sprintf(" (froze at %v)", ends)
	}
	if d, ok := l.(interface{ Drift() (float64, bool) }); ok {
		if rho, ok := d.Drift(); ok {
			s += fmt.Sprintf(" ρ %.2f", rho)
		}
	}
	return s
}
