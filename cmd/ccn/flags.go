package main

import (
	"errors"
	"flag"
	"io"
)

// newFlagSet returns a flag set for subcommand name that reports its own
// errors to stderr and lets the caller map them to exit codes.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ccn "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args; a bad flag becomes a usage error (exit 2), -h an
// exitError with status 0 and no message.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitError{code: 0}
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
