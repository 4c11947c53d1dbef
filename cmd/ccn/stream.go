package main

import (
	"bufio"
	"io"
	"strconv"

	"github.com/ccn-go/ccn/env"
)

// runStream writes an environment's stream as CSV: t, the observation,
// the cumulant and the true return G_t, one row per step.
func runStream(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stream", stderr)
	name := fs.String("env", "trace-patterning", "environment (trace-patterning)")
	steps := fs.Int("steps", 0, "number of steps to write (required, positive)")
	seed := fs.Uint64("seed", 1, "random seed")
	isiMin := fs.Int("isi-min", 24, "smallest inter-stimulus interval (CS to US, steps)")
	isiMax := fs.Int("isi-max", 36, "largest inter-stimulus interval")
	itiMin := fs.Int("iti-min", 80, "smallest inter-trial interval (US to next CS, steps)")
	itiMax := fs.Int("iti-max", 120, "largest inter-trial interval")
	distractors := fs.Int("distractors", 5, "number of distractor bits")
	gamma := fs.Float64("gamma", 0.9, "discount of the return, in (0, 1)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *name != "trace-patterning" {
		return badInput("unknown env %q (want trace-patterning)", *name)
	}
	if *steps <= 0 {
		return badInput("--steps must be positive, got %d", *steps)
	}
	// TraceConfig reads zero as "the paper's default", so zero is refused
	// here rather than silently replaced.
	for _, f := range []struct {
		flag string
		v    int
	}{{"isi-min", *isiMin}, {"isi-max", *isiMax}, {"iti-min", *itiMin}, {"iti-max", *itiMax}, {"distractors", *distractors}} {
		if f.v < 1 {
			return badInput("--%s must be at least 1, got %d", f.flag, f.v)
		}
	}
	if !(*gamma > 0 && *gamma < 1) {
		return badInput("--gamma must be in (0, 1), got %v", *gamma)
	}
	cfg := env.TraceConfig{ISIMin: *isiMin, ISIMax: *isiMax, ITIMin: *itiMin, ITIMax: *itiMax,
		Distractors: *distractors, Gamma: *gamma}
	if err := cfg.Validate(); err != nil {
		return badInput("%v", err)
	}
	return writeStream(stdout, env.NewTracePatterning(cfg, *seed), *steps)
}

// writeStream writes steps rows of e as CSV with a header; numbers use the
// shortest representation that reads back exactly.
func writeStream(stdout io.Writer, e env.Env, steps int) error {
	w := bufio.NewWriterSize(stdout, 1<<16)
	x := make([]float64, e.ObservationSize())
	line := make([]byte, 0, 256)

	line = append(line, 't')
	for i := range x {
		line = append(line, ",x"...)
		line = strconv.AppendInt(line, int64(i), 10)
	}
	line = append(line, ",cumulant,return\n"...)
	if _, err := w.Write(line); err != nil {
		return err
	}
	for t := range steps {
		c, g := e.Next(x)
		line = strconv.AppendInt(line[:0], int64(t), 10)
		for _, v := range x {
			line = append(line, ',')
			line = strconv.AppendFloat(line, v, 'g', -1, 64)
		}
		line = append(line, ',')
		line = strconv.AppendFloat(line, c, 'g', -1, 64)
		line = append(line, ',')
		line = strconv.AppendFloat(line, g, 'g', -1, 64)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}
