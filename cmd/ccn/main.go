// Command ccn verifies, runs and plots Columnar-Constructive Networks.
//
// Usage:
//
//	ccn <command> [flags]
//
// Run "ccn help" for the list of commands. Exit status:
//
//	0    success (a run whose directory already held a complete summary is skipped: 0)
//	1    a check failed (ccn verify, the gradient gate of ccn run) or an I/O error
//	2    bad input: one line on stderr naming the problem, nothing written
//	3    ccn run diverged (its files are written, with "diverged": true)
//	130  interrupted (SIGINT); no complete-looking run directory is left
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand of ccn. run gets the arguments after the command
// name and returns an error; errors wrapped with usageError exit with status 2.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists every subcommand; each lives in its own file.
func commands() map[string]command {
	return map[string]command{
		"verify":      {"check every hand-written gradient engine against the Gorgonia reference", runVerify},
		"grad":        {"gradients of a user's own LSTM case (JSON) from one engine", runGrad},
		"stream":      {"write an environment's stream (observations, cumulant, return) as CSV", runStream},
		"record":      {"play a pixel game and write its stream in the authors' ExperienceBuffer format", runRecord},
		"envs":        {"list the environments with their inputs, default γ and a description; --stats: the pixel games' stream statistics", runEnvs},
		"run":         {"learn online with TD(λ) and write curve.csv, predictions.csv, summary.json", runRun},
		"budget":      {"per-step operation counts and compute-matched configurations (paper Appendix A.7)", runBudget},
		"truncation":  {"T-BPTT truncation study: gradient bias against k and cost per step against size", runTruncation},
		"frozen-bias": {"along a run, the bias of the gradient that frozen stages learn with (frozen-step-scale) against the exact one", runFrozenBias},
		"sweep":       {"hyperparameter sweep of an experiment file: local pool, GNU parallel tasks or a Slurm array", runSweep},
		"collect":     {"merge a sweep's runs into tidy CSV and the selection table (mean ± s.e.)", runCollect},
		"version":     {"print the module version, VCS revision and Go version (also ccn --version)", runVersion},
		"plot":        {"draw the paper's figures from a results directory (PNG 300 dpi + PDF, captions)", runPlot},
	}
}

// usageError marks bad input from the user: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// badInput returns a usageError with a formatted message.
func badInput(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries a specific exit status with a message (empty: nothing printed).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		printHelp(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ccn: unknown command %q (run 'ccn help')\n", args[0])
		return 2
	}
	err := c.run(args[1:], stdout, stderr)
	if err == nil {
		return 0
	}
	var ue usageError
	var ee exitError
	switch {
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintf(stderr, "ccn %s: %s\n", args[0], ee.msg)
		}
		return ee.code
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "ccn %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "ccn %s: %v\n", args[0], err)
		return 1
	}
}

func printHelp(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: ccn <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nrun 'ccn <command> -h' for a command's flags")
}
