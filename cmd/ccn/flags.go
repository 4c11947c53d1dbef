package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/experiments"
)

// newFlagSet returns a flag set for subcommand name whose errors the caller
// reports (in one line, see parseFlags) and whose -h prints to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ccn "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { printUsage(fs) }
	return fs
}

// printUsage prints every flag of fs as "--name arg" with its help and
// default; arg names the kind of value (int, float, string …), or the word
// back-quoted in the help text.
func printUsage(fs *flag.FlagSet) {
	fmt.Fprintf(fs.Output(), "usage: %s [flags]\n", fs.Name())
	printFlags(fs)
}

// printFlags prints the flags of fs as printUsage does.
func printFlags(fs *flag.FlagSet) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := argName(f)
		line := "  --" + f.Name
		if len(f.Name) == 1 {
			line = "  -" + f.Name // -j, as the usage lines and the docs write it
		}
		if arg != "" {
			line += " " + arg
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && !strings.Contains(usage, "(default") {
			usage += " (default " + d + ")"
		}
		fmt.Fprintf(w, "%s\n    \t%s\n", line, usage)
	})
}

// argName returns the argument name of f and its usage text.
func argName(f *flag.Flag) (string, string) {
	if strings.Contains(f.Usage, "`") {
		return flag.UnquoteUsage(f)
	}
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return "", f.Usage
	}
	switch v := f.Value.(type) {
	case intValue:
		return "int", f.Usage
	case uint64Value:
		return "uint", f.Usage
	case settingValue:
		switch v.s.Field(&experiments.RunConfig{}).(type) {
		case *int:
			return "int", f.Usage
		case *uint64:
			return "uint", f.Usage
		case *float64, **float64:
			return "float", f.Usage
		}
		return "string", f.Usage
	}
	return flag.UnquoteUsage(f)
}

// parseFlags parses args. A bad flag (unknown, or a malformed value) becomes
// a usage error (exit 2) of one line naming the flag with a hint to -h; -h
// prints the usage and returns an exitError with status 0 and no message.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlagsAndArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q (see %s -h)", fs.Arg(0), fs.Name())
	}
	return nil
}

// parseFlagsAndArgs is parseFlags for commands that take arguments besides
// flags: it leaves them in fs.Args().
func parseFlagsAndArgs(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard) // the flag package would print the usage after every error
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return exitError{code: 0}
		}
		return badInput("%s (see %s -h)", flagProblem(err), fs.Name())
	}
	return nil
}

// flagProblem rewrites the flag package's message in the command's own
// spelling: --name rather than -name.
func flagProblem(err error) string {
	msg := err.Error()
	for _, p := range []string{"flag provided but not defined: -", "for flag -", "flag needs an argument: -"} {
		msg = strings.Replace(msg, p, p+"-", 1)
	}
	return msg
}

// intValue is a flag.Value for an int that also accepts an integral number in
// floating-point notation (1e6, 2.5e6).
type intValue struct{ p *int }

func (v intValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v intValue) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 0)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) >= math.MaxInt64 {
			return fmt.Errorf("%q is not an integer", s)
		}
		n = int64(f)
	}
	*v.p = int(n)
	return nil
}

// intFlag is fs.Int accepting 1e6.
func intFlag(fs *flag.FlagSet, name string, value int, usage string) *int {
	p := new(int)
	*p = value
	fs.Var(intValue{p}, name, usage)
	return p
}

// uint64Value is a flag.Value for a uint64 that also accepts an integral
// number in floating-point notation.
type uint64Value struct{ p *uint64 }

func (v uint64Value) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatUint(*v.p, 10)
}

func (v uint64Value) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f < 0 || f != math.Trunc(f) || f >= math.Ldexp(1, 64) {
			return fmt.Errorf("%q is not a non-negative integer", s)
		}
		n = uint64(f)
	}
	*v.p = n
	return nil
}

// uint64Flag is fs.Uint64 accepting 1e6.
func uint64Flag(fs *flag.FlagSet, name string, value uint64, usage string) *uint64 {
	p := new(uint64)
	*p = value
	fs.Var(uint64Value{p}, name, usage)
	return p
}
