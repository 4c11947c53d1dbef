package sweep

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
)

// NumericsError is returned by Pool.Execute, before any run is computed, when
// the results directory holds complete runs of the plan that a build of other
// numerics computed (experiments.Summary.NumericsID against the pool's
// Numerics): resuming would pool the bits of two builds in one selection.
// Pool.RecomputeMismatched recomputes those runs instead.
type NumericsError struct {
	Out      string
	Runs     int    // mismatched runs found
	Example  string // the ID of one of them
	Stored   string // its numerics
	Numerics string // this build's
}

func (e *NumericsError) Error() string {
	return fmt.Sprintf("sweep: %s holds %d runs computed with numerics %s (e.g. %s), this build computes %s; use a build of the same numerics, or --recompute-mismatched to recompute them",
		e.Out, e.Runs, e.Stored, filepath.Join(RunsDir, e.Example), e.Numerics)
}

// mismatched reports whether a complete outcome was computed with numerics
// other than n (lanes.Float32Numerics(n) for a run of the float32 engine, as
// experiments.RunNumerics names it).
func mismatched(o Outcome, n string) bool {
	if o.Summary.Config.Float32 {
		n = lanes.Float32Numerics(n)
	}
	return (o.State == Done || o.State == Diverged) && o.Summary.NumericsID() != n
}

// forget removes the summary of run id so that it is computed again (the run
// directory's other files are replaced by the new run).
func forget(out, id string) error {
	err := os.Remove(filepath.Join(RunDir(out, id), experiments.SummaryFile))
	if os.IsNotExist(err) {
		return nil
	}
	return err
}

// CheckNumerics returns a *NumericsError if the results directory out holds
// complete runs of the plan, among those a sweep resumed now would read, that
// a build of numerics other than n computed.
func CheckNumerics(plan Plan, out string, maxAttempts int, n string) error {
	if maxAttempts <= 0 {
		maxAttempts = DefaultMaxAttempts
	}
	return newScheduler(&plan, out, maxAttempts, false, n, false, false).mismatchError()
}
