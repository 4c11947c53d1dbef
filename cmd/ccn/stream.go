package main

import (
	"bufio"
	"flag"
	"io"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/experiments"
)

// traceKeys are the settings of the trace patterning task, the ccn stream
// flags shared with ccn run.
var traceKeys = []string{"isi-min", "isi-max", "iti-min", "iti-max", "distractors"}

// runStream writes an environment's stream as CSV: t, the observation,
// the cumulant, (for episodic streams) done, and the true return G_t, one
// row per step.
func runStream(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stream", stderr)
	name := fs.String("env", catalog.TracePatterning, "environment: "+strings.Join(catalog.Names(), ", ")+" (ccn envs)")
	stream := fs.String("stream", "", "recorded ExperienceBuffer file of --env atari")
	steps := intFlag(fs, "steps", 0, "number of steps to write (required, positive)")
	seed := uint64Flag(fs, "seed", 0, "random seed (the default of ccn run)")
	// The trace patterning settings are the rows of experiments.Settings,
	// as in ccn run: the same flags, help, checks and reading of 0 (the
	// paper's value).
	var task experiments.RunConfig
	for _, key := range traceKeys {
		settingFlag(fs, &task, key)
	}
	gamma := fs.Float64("gamma", 0, "discount of the return, in (0, 1); default: the environment's (ccn envs)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	info, err := catalog.Lookup(*name)
	if err != nil {
		return badInput("%v", err)
	}
	if *steps <= 0 {
		return badInput("--steps must be positive, got %d", *steps)
	}
	if !set["gamma"] {
		*gamma = info.Gamma
	} else if !(*gamma > 0 && *gamma < 1) {
		return badInput("--gamma must be in (0, 1), got %v", *gamma)
	}
	task.Env, task.Stream = *name, *stream
	r, err := task.Resolve()
	if err != nil {
		return configError(err, "--")
	}
	var e env.Env
	if *name == catalog.TracePatterning {
		tc := r.Trace()
		tc.Gamma = *gamma
		e = env.NewTracePatterning(tc, *seed)
	} else {
		if e, err = openEnv(*name, *seed, *gamma, *stream); err != nil {
			return err
		}
		defer catalog.Close(e)
	}
	return writeStream(stdout, e, *steps)
}

// openEnv builds a catalogued stream; every failure (unknown name, a stream
// file missing, unreadable or refused) is bad input.
func openEnv(name string, seed uint64, gamma float64, stream string) (env.Env, error) {
	e, err := catalog.New(name, catalog.Options{Seed: seed, Gamma: gamma, Stream: stream})
	if err != nil {
		if name == catalog.Atari && stream == "" {
			return nil, badInput("--env atari needs --stream FILE (an ExperienceBuffer file)")
		}
		if stream != "" && name != catalog.Atari {
			return nil, badInput("--stream applies to --env atari only")
		}
		return nil, badInput("%v", err)
	}
	return e, nil
}

// writeStream writes steps rows of e as CSV with a header; numbers use the
// shortest representation that reads back exactly. Episodic streams have a
// done column (1 on an episode's last step).
func writeStream(stdout io.Writer, e env.Env, steps int) error {
	w := bufio.NewWriterSize(stdout, 1<<16)
	x := make([]float64, e.ObservationSize())
	line := make([]byte, 0, 256)
	episodic, _ := e.(env.Episodic)

	line = append(line, 't')
	for _, name := range env.ObservationNames(e) {
		line = append(append(line, ','), name...)
	}
	if episodic != nil {
		line = append(line, ",cumulant,done,return\n"...)
	} else {
		line = append(line, ",cumulant,return\n"...)
	}
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
		if episodic != nil {
			if episodic.Done() {
				line = append(line, ",1"...)
			} else {
				line = append(line, ",0"...)
			}
		}
		line = append(line, ',')
		line = strconv.AppendFloat(line, g, 'g', -1, 64)
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return w.Flush()
}
