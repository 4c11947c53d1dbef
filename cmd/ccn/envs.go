package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/env/minatar"
)

// Defaults of ccn envs --stats: the first million steps of seed 100, the
// first final seed of the Atari experiment files.
const (
	statsSteps = 1_000_000
	statsSeed  = 100
)

// runEnvs lists every environment with its inputs, default γ and a line of
// description; with --stats, it prints the stream statistics of the pixel
// games instead (minatar.Measure).
func runEnvs(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("envs", stderr)
	stats := fs.Bool("stats", false, "print the pixel games' stream statistics (episodes, lengths, returns) instead of the list")
	steps := intFlag(fs, "steps", statsSteps, "with --stats: steps of each game's stream")
	seed := uint64Flag(fs, "seed", statsSeed, "with --stats: seed of the streams")
	window := intFlag(fs, "window", 0, "with --stats: final steps over which the return's variance (the best constant's error) is taken; default the games' error window (500,000), or every step if fewer")
	game := fs.String("env", "", "with --stats: one game ("+strings.Join(minatar.Names(), ", ")+"); default all")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !*stats {
		for _, f := range []string{"steps", "seed", "window", "env"} {
			if set[f] {
				return badInput("--%s applies to --stats only", f)
			}
		}
		return listEnvs(stdout)
	}
	if *steps < 1 {
		return badInput("--steps must be positive, got %d", *steps)
	}
	games := minatar.Names()
	if *game != "" {
		if _, err := minatar.Lookup(*game); err != nil {
			return badInput("--env: unknown game %q (want %s)", *game, strings.Join(minatar.Names(), ", "))
		}
		games = []string{*game}
	}
	w := *window
	if !set["window"] {
		info, err := catalog.Lookup(games[0])
		if err != nil {
			return err
		}
		w = min(info.Window, *steps)
	} else if w < 1 || w > *steps {
		return badInput("--window must lie in [1, --steps %d], got %d", *steps, w)
	}
	rows := make([]minatar.Stats, len(games))
	for i, g := range games {
		s, err := minatar.Measure(g, *seed, *steps, w, minatar.Config{})
		if err != nil {
			return err
		}
		rows[i] = s
	}
	return printStats(stdout, rows)
}

// listEnvs prints the environment list.
func listEnvs(stdout io.Writer) error {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "name\tinputs\tgamma\tepisodes\tdescription")
	for _, i := range catalog.All() {
		ep := "no"
		if i.Episodic {
			ep = "yes"
		}
		fmt.Fprintf(w, "%s\t%d\t%g\t%s\t%s\n", i.Name, i.Inputs, i.Gamma, ep, i.Description)
	}
	return w.Flush()
}

// printStats prints one row per game: a header line naming the stream, then
// the table.
func printStats(stdout io.Writer, rows []minatar.Stats) error {
	s0 := rows[0]
	fmt.Fprintf(stdout, "seed %d, %d steps per game, return variance over the final %d steps (the best constant's error)\n",
		s0.Seed, s0.Steps, s0.Window)
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "game\tepisodes\tshortest\t<%d steps\tp10\tmedian\tp90\treward/step\treturn mean\treturn sd\twindow variance\t\n", minatar.ShortEpisode)
	for _, s := range rows {
		fmt.Fprintf(w, "%s\t%d\t%d\t%.1f%%\t%d\t%d\t%d\t%.4f\t%.3f\t%.3f\t%.3f\t\n", s.Game, s.Episodes, s.Shortest, 100*s.Short,
			s.P10, s.Median, s.P90, s.RewardPerStep, s.ReturnMean, s.ReturnStd, s.WindowVariance)
	}
	return w.Flush()
}
