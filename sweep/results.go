package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ccn-go/ccn/internal/atomicfile"

	"github.com/ccn-go/ccn/experiments"
)

// NotResultsError is returned by Collect for a directory that is not a
// results directory of a sweep (the caller's input, not an I/O failure).
type NotResultsError struct {
	Dir     string
	Problem string // one line naming the directory
}

func (e *NotResultsError) Error() string { return "sweep: " + e.Problem }

// Layout of a results directory DIR:
//
//	DIR/plans/STUDY-SCALE.json   the expanded plans (Plan)
//	DIR/runs/ID/                 one run: curve.csv, predictions.csv, summary.json
//	DIR/runs/ID/failed.json      attempts and last error of a run that failed
//	DIR/locks/ID                 lock files (flock) taken while a run is computed
const (
	PlansDir   = "plans"
	RunsDir    = "runs"
	LocksDir   = "locks"
	FailedFile = "failed.json"
)

// DefaultMaxAttempts is the number of times a failing run is tried before it
// counts as failed for good.
const DefaultMaxAttempts = 2

// RunDir returns the directory of run id under the results directory out.
func RunDir(out, id string) string { return filepath.Join(out, RunsDir, id) }

// State is what a run directory holds.
type State int

// States of a run.
const (
	Pending  State = iota // no complete summary (never run, interrupted, or failed with attempts left)
	Done                  // complete summary
	Diverged              // complete summary with diverged: true
	Failed                // failed MaxAttempts times: no summary, counted as failed for good
)

func (s State) String() string {
	return [...]string{"pending", "done", "diverged", "failed"}[s]
}

// Outcome is the state of one run, with its summary when complete.
type Outcome struct {
	State    State
	Summary  experiments.Summary // valid for Done and Diverged
	Attempts int                 // failed attempts so far
	Error    string              // last failure
}

// failure is the content of failed.json.
type failure struct {
	Attempts int                   `json:"attempts"`
	Error    string                `json:"error"`
	Config   experiments.RunConfig `json:"config"`
}

// Look reads the outcome of run id in out; a run that failed maxAttempts
// times is Failed.
func Look(out, id string, maxAttempts int) Outcome {
	dir := RunDir(out, id)
	if s, err := experiments.ReadSummary(dir); err == nil {
		if s.Diverged {
			return Outcome{State: Diverged, Summary: s}
		}
		return Outcome{State: Done, Summary: s}
	}
	var f failure
	if b, err := os.ReadFile(filepath.Join(dir, FailedFile)); err == nil && json.Unmarshal(b, &f) == nil {
		o := Outcome{State: Pending, Attempts: f.Attempts, Error: f.Error}
		if f.Attempts >= maxAttempts {
			o.State = Failed
		}
		return o
	}
	return Outcome{State: Pending}
}

// recordFailure adds one failed attempt of the run of cfg to its directory
// and returns the count.
func recordFailure(dir string, cfg experiments.Resolved, runErr error) (int, error) {
	var f failure
	if b, err := os.ReadFile(filepath.Join(dir, FailedFile)); err == nil {
		_ = json.Unmarshal(b, &f)
	}
	f.Attempts++
	f.Error = runErr.Error()
	f.Config = cfg.Config()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return f.Attempts, err
	}
	b, _ := json.MarshalIndent(f, "", "  ")
	return f.Attempts, atomicfile.WriteFile(filepath.Join(dir, FailedFile), append(b, '\n'), 0o644)
}

// clearFailure removes the failure record of a run that now completed, and
// forgets failures when the user asks for a retry.
func clearFailure(dir string) {
	os.Remove(filepath.Join(dir, FailedFile))
}

// removeStale deletes temporary files that a killed run left in dir.
func removeStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".tmp") {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// SavePlan writes the plan to out/plans/STUDY-SCALE.json (atomically) and
// creates the results directory layout.
func SavePlan(out string, p Plan) error {
	for _, d := range []string{PlansDir, RunsDir, LocksDir} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(out, PlansDir, p.planFile()), append(b, '\n'), 0o644)
}

// LoadPlans reads every plan saved in out, ordered by study and scale.
func LoadPlans(out string) ([]Plan, error) {
	paths, err := filepath.Glob(filepath.Join(out, PlansDir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if _, err := os.Stat(out); errors.Is(err, fs.ErrNotExist) {
			return nil, &NotResultsError{Dir: out, Problem: "results directory " + out + " does not exist"}
		}
		return nil, &NotResultsError{Dir: out, Problem: fmt.Sprintf("%s holds no plans (%s/*.json): not a results directory of ccn sweep", out, PlansDir)}
	}
	sort.Strings(paths)
	var plans []Plan
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var p Plan
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("sweep: read plan %s: %w", path, err)
		}
		if err := validatePlan(p); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		plans = append(plans, p)
	}
	sort.SliceStable(plans, func(i, j int) bool {
		if plans[i].Study != plans[j].Study {
			return plans[i].Study < plans[j].Study
		}
		return plans[i].Scale < plans[j].Scale
	})
	return plans, nil
}
