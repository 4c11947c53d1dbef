package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/internal/lanes"
)

// runVersion prints the module version, the VCS revision and the Go version
// of this binary, and the numerics of its kernels (lanes.Numerics): the
// values every summary.json records.
func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, r := experiments.BuildInfo()
	fmt.Fprintf(stdout, "ccn %s, revision %s, %s, numerics %s\n", v, r, runtime.Version(), lanes.Numerics())
	return nil
}
