package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/ccn-go/ccn/sweep"
)

// runCollect merges the runs of a results directory into tidy CSV tables and
// prints the selection (best configuration per group, mean ± standard error,
// median and runs that never beat the best constant, over the final seeds,
// and the numerics of the builds that computed the group's runs, with a
// warning per group that pools builds of different numerics).
//
// Exit status: 0 done, 1 an I/O error, 2 bad input (not a results directory).
func runCollect(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("collect", stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: ccn collect DIR [--to OUTDIR]")
		printFlags(fs)
	}
	to := fs.String("to", "", "directory for curves.csv, candidates.csv, selection.csv (default DIR)")
	dir, rest := "", args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, rest = args[0], args[1:]
	}
	if err := parseFlags(fs, rest); err != nil {
		return err
	}
	if dir == "" {
		return badInput("a results directory (ccn sweep --out DIR) is required")
	}
	if *to == "" {
		*to = dir
	}
	res, err := sweep.Collect(dir)
	if nr := (*sweep.NotResultsError)(nil); errors.As(err, &nr) {
		return badInput("%s", nr.Problem)
	}
	if err != nil {
		return exitError{exitRunFailed, err.Error()}
	}
	paths, err := res.WriteFiles(*to)
	if err != nil {
		return exitError{exitRunFailed, err.Error()}
	}
	if err := res.WriteTable(stdout); err != nil {
		return err
	}
	for _, line := range res.Mixed() {
		fmt.Fprintf(stderr, "warning: %s (rerun them with one build: ccn sweep FILE --recompute-mismatched)\n", line)
	}
	for _, p := range paths {
		fmt.Fprintf(stderr, "wrote %s\n", p)
	}
	return nil
}
