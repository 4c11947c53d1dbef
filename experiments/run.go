package experiments

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/internal/atomicfile"
	"github.com/ccn-go/ccn/internal/cputime"
	"github.com/ccn-go/ccn/td"
)

// ErrDiverged is returned by Run, with the written Summary, when a prediction
// or a parameter became NaN or ±Inf: the run stopped there and its files
// record the steps before.
var ErrDiverged = errors.New("experiments: run diverged")

// Options are the parts of a run that do not change its results.
type Options struct {
	// Force reruns even if the directory holds a complete summary.
	Force bool
	// Gate, if not nil, is called with the resolved configuration before
	// anything is written; an error stops the run. compare.RunGate is the
	// gradient gate of ccn run and ccn sweep (the configured learner against
	// the autodiff reference on a stretch of the run's own stream): set Gate
	// to it to run the same check from the library.
	Gate func(Resolved) error
	// Progress receives progress reports; nil for none.
	Progress io.Writer
	// Terminal draws a progress bar on Progress instead of periodic lines.
	Terminal bool
}

// OtherRunError is returned by Run (without Force) when dir already holds a
// complete run of another configuration: Key is the first setting, in the
// order of Settings, whose stored value differs from the requested one, or
// "numerics" when the configuration is the same but the run was computed by
// a build of other numerics (Summary.NumericsID against RunNumerics), so
// that its bits are not this build's.
type OtherRunError struct {
	Dir, Key, Stored, Requested string
}

func (e *OtherRunError) Error() string {
	return fmt.Sprintf("experiments: %s holds a complete run with %s %s, not %s; use --force to replace it, or another --out",
		e.Dir, e.Key, e.Stored, e.Requested)
}

// Unwrap makes an OtherRunError match ErrInvalid: it is the caller's input.
func (e *OtherRunError) Unwrap() error { return ErrInvalid }

// checkEvery is the number of steps between checks of the parameters for
// NaN and ±Inf, for cancellation, and progress reports. Predictions are
// checked at every step.
const checkEvery = 1 << 12

// Run learns for r's steps and writes into dir (created if needed):
//
//	curve.csv        step,error  (windowed error every LogEvery steps and at the end)
//	predictions.csv  t,prediction,return for the final PredictionsKept steps
//	summary.json     Summary, written last
//
// each through a temporary file and a rename. If dir already holds a
// summary.json of the same configuration and numerics, Run returns it
// (Skipped set) without running unless opts.Force; of another configuration
// or numerics, it returns an *OtherRunError. An unusable directory returns a *ConfigError (Key "out") before
// anything is created. On divergence the files are
// written (Diverged set) and the error is ErrDiverged. If ctx is cancelled the
// run stops, leaves no complete-looking directory (a directory Run created is
// removed) and returns an error wrapping ctx.Err().
func Run(ctx context.Context, r Resolved, dir string, opts Options) (Summary, error) {
	if err := CheckDir(dir); err != nil {
		return Summary{}, err
	}
	if !opts.Force {
		if s, err := ReadSummary(dir); err == nil {
			if key, stored, asked, differ := FirstDifference(s.Config, r.c); differ {
				return Summary{}, &OtherRunError{Dir: dir, Key: key, Stored: stored, Requested: asked}
			}
			if n := RunNumerics(r.c); s.NumericsID() != n {
				return Summary{}, &OtherRunError{Dir: dir, Key: "numerics", Stored: s.NumericsID(), Requested: n}
			}
			s.Skipped = true
			return s, nil
		}
	}
	// A recorded stream is opened (and checked) before anything else, so
	// that a bad file leaves nothing behind.
	e, err := r.OpenEnv()
	if err != nil {
		return Summary{}, &ConfigError{Key: "stream", Problem: fmt.Sprintf("env %s: %v", r.c.Env, err)}
	}
	defer catalog.Close(e)
	if f, ok := e.(env.Recorded); ok && opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "stream %s: %d records, %d episodes, %d-value readings, sha256 %s\n",
			f.Path(), f.Records(), f.Episodes(), f.ReadingLength(), f.SHA256())
	}
	if opts.Gate != nil {
		if err := opts.Gate(r); err != nil {
			return Summary{}, err
		}
	}

	_, statErr := os.Stat(dir)
	created := errors.Is(statErr, fs.ErrNotExist)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Summary{}, fmt.Errorf("experiments: create %s: %w", dir, err)
	}
	s, err := execute(ctx, r, e, dir, opts)
	if err != nil && !errors.Is(err, ErrDiverged) {
		if created {
			os.RemoveAll(dir)
		}
		return Summary{}, err
	}
	return s, err
}

// agent is the part of a td.Agent[T] that the learning loop uses, whatever
// the element type T of its learner.
type agent interface {
	Start(x []float64) float64
	Step(x []float64, c float64) (float64, bool)
	EndEpisode()
	ParamsFinite() bool
}

// newAgent returns the TD(λ) agent of a run and its learner: the float32
// engine's (NewLearner32) under the float32 setting, else NewLearner's.
func (r Resolved) newAgent(inputs int) (agent, interface{ NumParams() int }) {
	cfg := r.Config()
	if cfg.Float32 {
		l, layout, opt := r.NewLearner32(inputs)
		return td.New(l, layout, opt, cfg.Gamma, *cfg.Lambda), l
	}
	l, layout, opt := r.NewLearner(inputs)
	a := td.New(l, layout, opt, cfg.Gamma, *cfg.Lambda)
	if cfg.FrozenStepScale > 0 {
		a.LearnFrozen(r.optimizer(cfg.FrozenStepScale * cfg.StepSize))
	}
	return a, l
}

// execute runs the learning loop and writes the files; on an error other than
// divergence it leaves no file of its own behind.
func execute(ctx context.Context, r Resolved, e env.Env, dir string, opts Options) (sum Summary, err error) {
	cfg := r.Config()
	// An old summary must not vouch for the files being replaced.
	if err := os.Remove(filepath.Join(dir, SummaryFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return sum, err
	}
	curveTmp, err := atomicfile.Create(filepath.Join(dir, CurveFile), 0o644)
	if err != nil {
		return sum, err
	}
	defer func() {
		if err != nil && !errors.Is(err, ErrDiverged) {
			curveTmp.Abort()
		}
	}()
	curve := bufio.NewWriterSize(curveTmp, 1<<16)
	curve.WriteString(curveHeader + "\n")

	agent, learner := r.newAgent(e.ObservationSize())
	win := newWindowError(cfg.Window)
	rets := newReturnWindow(cfg.Window)
	preds := make([]float64, 3*PredictionsKept) // t, prediction, return
	label := fmt.Sprintf("%s seed %d", cfg.Method, cfg.Seed)
	prog := newProgress(opts.Progress, opts.Terminal, cfg.Steps, label)
	if l, ok := learner.(StageEnder); ok && prog != nil {
		prog.detail = func() string { return stageText(l) }
	}
	done := ctx.Done()

	var line []byte
	writePoint := func(step int) {
		line = appendCurveRow(line[:0], step, win.mean())
		curve.Write(line)
	}

	s := newStepper(e, agent)
	// The loop on one thread, so that its thread's CPU time is the run's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, cpuOK := cputime.Thread()
	start := time.Now()
	y, ret := s.start()
	steps, diverged := 0, false
	for t := 0; t < cfg.Steps; t++ {
		if t > 0 {
			var ok bool
			if y, ret, ok = s.step(); !ok {
				diverged = true
				break
			}
		}
		d := y - ret
		if sq := d * d; win.fits(sq) {
			win.add(sq)
			rets.add(ret)
		} else { // y is NaN, ±Inf, or so large that the error overflows
			diverged = true
			break
		}
		k := 3 * (t % PredictionsKept)
		preds[k], preds[k+1], preds[k+2] = float64(t), y, ret
		steps = t + 1
		if steps%cfg.LogEvery == 0 {
			writePoint(steps)
		}
		if steps%checkEvery == 0 {
			if !agent.ParamsFinite() {
				diverged = true
				break
			}
			select {
			case <-done:
				return sum, fmt.Errorf("experiments: run interrupted at step %d: %w", steps, ctx.Err())
			default:
			}
			prog.update(steps, win.mean())
		}
	}
	wall := time.Since(start).Seconds()
	cpu1, _ := cputime.Thread()
	if !diverged && !agent.ParamsFinite() {
		diverged = true
	}
	if steps%cfg.LogEvery != 0 && steps > 0 {
		writePoint(steps)
	}

	sum = newSummary(cfg)
	sum.Steps = steps
	sum.FinalError = win.mean()
	sum.ReturnVariance = rets.variance()
	sum.Stream = streamFile(e)
	sum.LifetimeError = win.lifetimeMean()
	sum.Parameters = learner.NumParams()
	if l, ok := learner.(StageEnder); ok && len(l.StageEnds()) > 0 {
		sum.Stages = append([]int(nil), l.StageEnds()...)
	}
	sum.WallSeconds = wall
	if cpuOK {
		sum.CPUSeconds = (cpu1 - cpu0).Seconds()
	}
	if wall > 0 {
		sum.StepsPerSecond = float64(steps) / wall
	}
	sum.Diverged = diverged

	if err := curve.Flush(); err != nil {
		return sum, err
	}
	if err := curveTmp.Commit(); err != nil {
		return sum, err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, PredictionsFile), predictionsCSV(preds, steps), 0o644); err != nil {
		return sum, err
	}
	js, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return sum, err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, SummaryFile), append(js, '\n'), 0o644); err != nil {
		return sum, err
	}
	prog.finish(sum)
	if diverged {
		return sum, ErrDiverged
	}
	return sum, nil
}
