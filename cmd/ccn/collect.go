package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/ccn-go/ccn/internal/atomicfile"
	"github.com/ccn-go/ccn/report"
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
		fmt.Fprintln(fs.Output(), "usage: ccn collect DIR [--to OUTDIR | --markdown FILE]")
		printFlags(fs)
	}
	to := fs.String("to", "", "directory for curves.csv, candidates.csv, selection.csv (default DIR)")
	markdown := fs.String("markdown", "", "instead of the tables, write the generated blocks a results page holds (docs/results.md from scale paper: claims, authors-setup; docs/atari.md from scale medium: atari-claims, atari-sensitivity) between their markers <!-- generated:NAME:start --> and <!-- generated:NAME:end --> in `file` (-: the claims tables to standard output)")
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
	if *markdown != "" {
		return writeClaims(res, *markdown, stdout)
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

// writeClaims writes the generated blocks (report.Blocks) of res into the
// Markdown page at path, each between its markers, or the claims tables to
// stdout for "-". A page without any block's markers is bad input, left
// unchanged.
func writeClaims(res *sweep.Results, path string, stdout io.Writer) error {
	if path == "-" {
		if err := report.WriteClaims(stdout, res); err != nil {
			return exitError{exitRunFailed, err.Error()}
		}
		return nil
	}
	page, err := os.ReadFile(path)
	if err != nil {
		return badInput("--markdown: %v", err)
	}
	out, found := string(page), 0
	for _, name := range slices.Sorted(maps.Keys(report.Blocks)) {
		if _, err := report.Generated(out, name); err != nil {
			continue
		}
		var b strings.Builder
		if err := report.Blocks[name](&b, res); err != nil {
			return exitError{exitRunFailed, err.Error()}
		}
		if out, err = report.ReplaceGenerated(out, name, b.String()); err != nil {
			return exitError{exitRunFailed, err.Error()}
		}
		found++
	}
	if found == 0 {
		return badInput("--markdown %s: no generated block (<!-- generated:NAME:start --> … <!-- generated:NAME:end -->, NAME one of %s)",
			path, strings.Join(slices.Sorted(maps.Keys(report.Blocks)), ", "))
	}
	if out == string(page) {
		fmt.Fprintf(stdout, "%s: %d generated blocks up to date\n", path, found)
		return nil
	}
	if err := atomicfile.WriteFile(path, []byte(out), 0o644); err != nil {
		return exitError{exitRunFailed, err.Error()}
	}
	fmt.Fprintf(stdout, "%s: %d generated blocks rewritten\n", path, found)
	return nil
}
