package sweep

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// DefaultInterval is the time between progress lines when the output is not a
// terminal.
const DefaultInterval = 10 * time.Second

// progress reports a sweep's advance over the runs it has to compute: a bar
// (runs done/total, elapsed, ETA) on a terminal, a line every interval
// otherwise. A nil *progress reports nothing.
type progress struct {
	w        io.Writer
	label    string
	bar      *progressbar.ProgressBar
	interval time.Duration
	total    int
	done     int
	diverged int
	failed   int
	start    time.Time
	last     time.Time
}

func newProgress(w io.Writer, terminal bool, label string, total int, interval time.Duration) *progress {
	if w == nil {
		return nil
	}
	if interval <= 0 {
		interval = DefaultInterval
	}
	now := time.Now()
	p := &progress{w: w, label: label, total: total, interval: interval, start: now, last: now}
	if terminal {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(label),
			progressbar.OptionShowCount(),
			progressbar.OptionSetItsString("runs"),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionSetRenderBlankState(true),
		)
	} else {
		fmt.Fprintf(w, "%s: %d runs to compute\n", label, total)
	}
	return p
}

// changeTotal adds delta (possibly negative) to the number of runs expected.
func (p *progress) changeTotal(delta int) {
	if p == nil || delta == 0 {
		return
	}
	p.total += delta
	if p.bar != nil {
		p.bar.ChangeMax(p.total)
	}
}

// finished counts one run computed (or given up).
func (p *progress) finished(o Outcome) {
	if p == nil {
		return
	}
	p.done++
	switch o.State {
	case Diverged:
		p.diverged++
	case Failed:
		p.failed++
	}
	if p.bar != nil {
		p.bar.Add(1)
		return
	}
	p.tick(false)
}

// tick prints a line if the interval has passed (or if force).
func (p *progress) tick(force bool) {
	if p == nil || p.bar != nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	el := now.Sub(p.start)
	eta := "unknown"
	if p.done > 0 {
		rem := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		eta = rem.Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "%s: %d/%d runs (%d diverged, %d failed), elapsed %v, ETA %s\n",
		p.label, p.done, p.total, p.diverged, p.failed, el.Round(time.Second), eta)
}

func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
		return
	}
	p.tick(true)
}
