package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/ccn-go/ccn/env/minatar"
	"github.com/ccn-go/ccn/internal/atomicfile"
)

// runRecord plays a pixel game and writes its stream in the authors'
// ExperienceBuffer format: per step the 16×16 frame/256 (256 readings), the
// action's index in the minimal set, the reward and done. Replaying the file
// with --env atari --stream gives the game's observations exactly.
func runRecord(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("record", stderr)
	name := fs.String("env", "", "game: "+fmt.Sprint(minatar.Names()))
	steps := intFlag(fs, "steps", 0, "number of steps to record (required, positive)")
	seed := uint64Flag(fs, "seed", 0, "random seed (the default of ccn run)")
	out := fs.String("out", "", "output file (required; written atomically)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if _, err := minatar.Lookup(*name); err != nil {
		return badInput("%v", err)
	}
	if *steps <= 0 {
		return badInput("--steps must be positive, got %d", *steps)
	}
	if *out == "" {
		return badInput("--out FILE is required")
	}
	if fi, err := os.Stat(filepath.Dir(*out)); err != nil || !fi.IsDir() {
		return badInput("--out %s: %s is not an existing directory", *out, filepath.Dir(*out))
	}
	if fi, err := os.Stat(*out); err == nil && fi.IsDir() {
		return badInput("--out %s is a directory", *out)
	}
	g, err := minatar.New(*name, *seed, minatar.Config{})
	if err != nil {
		return badInput("%v", err)
	}
	return atomicfile.Write(*out, 0o644, func(w io.Writer) error {
		return minatar.Record(w, g, *steps)
	})
}
