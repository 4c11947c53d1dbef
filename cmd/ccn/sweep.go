package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ccn-go/ccn/internal/atomicfile"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
	"github.com/ccn-go/ccn/sweep"
)

// Exit statuses of ccn sweep besides 0, 2 (bad input) and 130 (interrupted).
const exitSweepFailed = 1 // a run failed for good, or the results directory is unusable

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runSweep expands an experiment file at one scale and computes its runs on a
// local pool, or writes them as a task file (GNU parallel) and a Slurm
// job-array script.
//
// Exit status: 0 done (diverged runs are results), 1 a run failed for good or
// an I/O error, 2 bad input (also: the results directory holds runs computed
// by a build of other numerics, without --recompute-mismatched), 130
// interrupted (rerun to resume).
func runSweep(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sweep", stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ccn sweep FILE --scale S --out DIR [-j N | --emit-tasks FILE | --emit-slurm FILE | --status]")
		printFlags(fs)
	}
	scale := fs.String("scale", "quick", "`scale` of the study: smoke, quick, medium or paper (any the file defines)")
	out := fs.String("out", "", "results `dir`ectory (required; its parent must exist); runs go to DIR/runs/ID")
	jobs := intFlag(fs, "j", runtime.NumCPU(), "runs computed at once by the local pool")
	emitTasks := fs.String("emit-tasks", "", "write one ccn run command per runnable run to this `file` instead of running")
	emitSlurm := fs.String("emit-slurm", "", "write a Slurm job-array script to this `file`, over the task file (default task file: this path + .tasks)")
	throttle := intFlag(fs, "throttle", 100, "Slurm array tasks running at once (--array=1-N%T); 0 for no limit")
	var sbatch stringList
	fs.Var(&sbatch, "sbatch", "extra #SBATCH `option` for the script, e.g. --partition=short (repeatable)")
	bin := fs.String("ccn", "", "`path` of the ccn binary in emitted tasks (default: this binary)")
	noGate := fs.Bool("no-gate", false, "skip the gradient check against the reference before runs")
	retry := fs.Bool("retry-failed", false, "forget earlier failures and try failed runs again")
	recompute := fs.Bool("recompute-mismatched", false, "recompute the complete runs that a build of other numerics computed (summary.json numerics), instead of refusing to resume")
	attempts := intFlag(fs, "max-attempts", sweep.DefaultMaxAttempts, "tries of a failing run before it counts as failed")
	envs := fs.String("envs", "", "comma-separated `list` of environments (names or atari:FILE) replacing the study's envs; +LIST adds to them")
	every := fs.Duration("progress-every", sweep.DefaultInterval, "time between progress lines when stderr is not a terminal")
	stage := fs.String("stage", "all", "`stage`s the local pool computes: all, or sweep (the sweep stage only, no final run)")
	status := fs.Bool("status", false, "print how far the study's runs in DIR have come and the time left, and exit (computes and writes nothing)")

	file, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, rest = args[0], args[1:]
	}
	if err := parseFlagsAndArgs(fs, rest); err != nil {
		return err
	}
	if file == "" && fs.NArg() > 0 {
		file, rest = fs.Arg(0), fs.Args()[1:]
		if err := parseFlagsAndArgs(fs, rest); err != nil {
			return err
		}
	}
	switch {
	case file == "":
		return badInput("an experiment file is required (see experiments/configs)")
	case fs.NArg() > 0:
		return badInput("unexpected argument %q", fs.Arg(0))
	case *out == "":
		return badInput("--out DIR is required")
	case *jobs < 1:
		return badInput("-j must be at least 1, got %d", *jobs)
	case *throttle < 0:
		return badInput("--throttle must be 0 or more, got %d", *throttle)
	case *attempts < 1:
		return badInput("--max-attempts must be at least 1, got %d", *attempts)
	case *stage != "all" && *stage != "sweep":
		return badInput("--stage must be all or sweep, got %q", *stage)
	case *stage == "sweep" && (*emitTasks != "" || *emitSlurm != ""):
		return badInput("--stage sweep is for the local pool, not with --emit-tasks or --emit-slurm")
	case *status && (*emitTasks != "" || *emitSlurm != ""):
		return badInput("--status computes nothing: not with --emit-tasks or --emit-slurm")
	}
	study, err := sweep.Load(file)
	if err != nil {
		return studyError(err)
	}
	if *envs != "" {
		list := strings.Split(strings.TrimPrefix(*envs, "+"), ",")
		if strings.HasPrefix(*envs, "+") {
			list = append(slices.Clone(study.Envs), list...)
		}
		if study, err = study.WithEnvs(list); err != nil {
			return studyError(err)
		}
	}
	plan, err := study.Plan(*scale)
	if err != nil {
		return studyError(err)
	}
	if *status {
		if fi, err := os.Stat(*out); err != nil || !fi.IsDir() {
			return badInput("--status: results directory %s does not exist", *out)
		}
		writeStatus(stdout, plan, *out, sweep.StatusOf(plan, *out, *attempts), *jobs)
		return nil
	}
	// Like ccn run: the results directory may be new, its parent may not.
	if err := experiments.CheckDir(*out); err != nil {
		return configError(err, "")
	}
	if err := os.Mkdir(*out, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return badInput("--out: %v", err)
	}
	if *emitTasks != "" || *emitSlurm != "" {
		// The emitted ccn run commands refuse a directory holding a run of
		// other numerics one by one; refuse them all here, once.
		if err := sweep.CheckNumerics(plan, *out, *attempts, lanes.Numerics()); err != nil {
			if *recompute {
				return badInput("%s; --recompute-mismatched recomputes on the local pool only (drop --emit-tasks and --emit-slurm)", strings.TrimPrefix(err.Error(), "sweep: "))
			}
			return badInput("%s", strings.TrimPrefix(err.Error(), "sweep: "))
		}
		return emitSweep(plan, *out, *emitTasks, *emitSlurm, *bin, *throttle, sbatch, !*noGate, *attempts, stdout)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pool := sweep.Pool{Workers: *jobs, MaxAttempts: *attempts, RetryFailed: *retry,
		Progress: stderr, Terminal: isTerminal(stderr), Interval: *every,
		NoGate: *noGate, RecomputeMismatched: *recompute, SweepOnly: *stage == "sweep"}
	start := time.Now()
	rep, err := pool.Execute(ctx, plan, *out)
	summary := fmt.Sprintf("%s/%s: %d runs computed (%d diverged), %d found complete, %d failed attempts, in %v",
		plan.Study, plan.Scale, rep.Ran, rep.Diverged, rep.Found, rep.Failed, time.Since(start).Round(time.Second))
	if rep.Mismatched > 0 {
		summary += fmt.Sprintf("; %d runs of other numerics recomputed", rep.Mismatched)
	}
	var ne *sweep.NumericsError
	switch {
	case errors.As(err, &ne) && rep.Ran == 0:
		return badInput("%s", strings.TrimPrefix(ne.Error(), "sweep: "))
	case errors.As(err, &ne):
		return exitError{exitSweepFailed, summary + "; " + strings.TrimPrefix(ne.Error(), "sweep: ")}
	case errors.Is(err, context.Canceled):
		return exitError{exitInterrupted, summary + "; interrupted: run the same command again to resume"}
	case err != nil:
		return exitError{exitSweepFailed, err.Error()}
	}
	fmt.Fprintln(stdout, summary)
	if *stage == "sweep" {
		fmt.Fprintln(stdout, "sweep stage only: run the same command without --stage sweep for the final runs")
	}
	if rep.Busy > 0 || rep.Waiting > 0 {
		fmt.Fprintf(stdout, "%d runs were held by another process and %d groups wait for their sweep stage: run the same command again when that process is done\n", rep.Busy, rep.Waiting)
	}
	res, err := sweep.Collect(*out)
	if err != nil {
		return exitError{exitSweepFailed, err.Error()}
	}
	failed := 0
	for _, s := range res.Selection() {
		if s.Plan.Study == plan.Study && s.Plan.Scale == plan.Scale {
			failed += s.Final.Failed
		}
	}
	fmt.Fprintf(stdout, "results in %s; tables: ccn collect %s\n", *out, *out)
	if failed > 0 {
		return exitError{exitSweepFailed, fmt.Sprintf("%d final runs failed for good (see DIR/runs/*/%s; --retry-failed tries them again)", failed, sweep.FailedFile)}
	}
	return nil
}

// writeStatus prints a study's sweep.Status in DIR: the runs of each stage
// and the time left at the directory's own speeds, for one run at a time
// and for jobs at once.
func writeStatus(w io.Writer, plan sweep.Plan, out string, st sweep.Status, jobs int) {
	stage := func(name string, c sweep.StageCount) string {
		return fmt.Sprintf("  %s stage: %d of %d runs complete (%d diverged), %d failed, %d pending",
			name, c.Done+c.Diverged, c.Total(), c.Diverged, c.Failed, c.Pending)
	}
	fmt.Fprintf(w, "%s/%s in %s\n", plan.Study, plan.Scale, out)
	fmt.Fprintln(w, stage("sweep", st.Sweep))
	line := stage("final", st.Final)
	if st.Waiting > 0 {
		line += fmt.Sprintf("; %d more waiting for their group's selection", st.Waiting)
	}
	fmt.Fprintln(w, line)
	if st.Steps == 0 {
		fmt.Fprintln(w, "  left: nothing to compute")
		return
	}
	million := func(n int64) string { return fmt.Sprintf("%.1fM", float64(n)/1e6) }
	left := fmt.Sprintf("  left: %s steps", million(st.Steps))
	if measured := st.Steps - st.Unmeasured; measured > 0 {
		h := st.Seconds / 3600
		left += fmt.Sprintf(", about %.1f run-hours for %s of them at this directory's speeds (each run at the CPU time per step of its configuration's complete runs of its length, else of any length, else of its group's, else of the same learner's in another group; wall time where a run did not record it), %.1f hours with -j %d",
			h, million(measured), h/float64(jobs), jobs)
	}
	if st.Unmeasured > 0 {
		left += fmt.Sprintf("; %s steps of learners without a complete run not estimated", million(st.Unmeasured))
	}
	fmt.Fprintln(w, left)
}

// studyError turns a sweep.StudyError into bad input naming the layer once
// ("invalid study FILE: problem"); other errors are bad input unchanged.
func studyError(err error) error {
	var se *sweep.StudyError
	if errors.As(err, &se) {
		if se.Path != "" {
			return badInput("invalid study %s: %s", se.Path, se.Problem)
		}
		return badInput("invalid study: %s", se.Problem)
	}
	return usageError{err}
}

// emitSweep writes the task file and, if asked, the Slurm script.
func emitSweep(plan sweep.Plan, out, tasksPath, slurmPath, bin string, throttle int, sbatch []string, gate bool, attempts int, stdout io.Writer) error {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return badInput("--out: %v", err)
	}
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return exitError{exitSweepFailed, fmt.Sprintf("locate the ccn binary (use --ccn PATH): %v", err)}
		}
	}
	if tasksPath == "" {
		tasksPath = slurmPath + ".tasks"
	}
	if err := sweep.SavePlan(absOut, plan); err != nil {
		return exitError{exitSweepFailed, err.Error()}
	}
	tasks, waiting := sweep.Runnable(plan, absOut, attempts)
	var buf bytes.Buffer
	if err := sweep.WriteTasks(&buf, bin, absOut, tasks, gate); err != nil {
		return exitError{exitSweepFailed, err.Error()}
	}
	if err := atomicfile.WriteFile(tasksPath, buf.Bytes(), 0o644); err != nil {
		return exitError{exitSweepFailed, err.Error()}
	}
	fmt.Fprintf(stdout, "%s: %d runnable runs written to %s\n", plan.Study+"/"+plan.Scale, len(tasks), tasksPath)
	if slurmPath != "" {
		if len(tasks) == 0 {
			fmt.Fprintf(stdout, "no runnable runs: %s not written\n", slurmPath)
		} else {
			absTasks, _ := filepath.Abs(tasksPath)
			buf.Reset()
			err := sweep.WriteSlurm(&buf, sweep.Slurm{TaskFile: absTasks, Tasks: len(tasks), Throttle: throttle,
				LogDir: filepath.Join(absOut, "logs"), JobName: "ccn-" + plan.Study + "-" + plan.Scale, Options: sbatch})
			if err == nil {
				err = os.MkdirAll(filepath.Join(absOut, "logs"), 0o755)
			}
			if err == nil {
				err = atomicfile.WriteFile(slurmPath, buf.Bytes(), 0o755)
			}
			if err != nil {
				return exitError{exitSweepFailed, err.Error()}
			}
			fmt.Fprintf(stdout, "Slurm job array of %d tasks written to %s (submit: sbatch %s; logs in %s)\n",
				len(tasks), slurmPath, slurmPath, filepath.Join(absOut, "logs"))
		}
	}
	if waiting > 0 {
		fmt.Fprintf(stdout, "%d groups wait for their sweep stage: when these runs are done, run this command again for their final runs\n", waiting)
	} else if len(tasks) == 0 {
		fmt.Fprintf(stdout, "every run is complete: ccn collect %s\n", out)
	}
	return nil
}
