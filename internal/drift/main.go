// Command drift prints the AutoFreeze test of a CCN or Constructive run's
// first stage as it learns (forward.AutoFreeze, docs/stages.md): every
// -every steps the step, the mean cosine ρ of successive displacements of
// the learning stage's parameters over windows of -window steps (decay
// -decay), and the mean squared return error since the last line. The stage
// never freezes. It made the numbers of docs/stages.md on the trace
// patterning plateau:
//
//	go run ./internal/drift -steps 2000000 -window 2000 -decay 0.98 -seed 1
//
// The learner, optimizer and TD(λ) agent are those of ccn run with the same
// settings; nothing is written.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

func main() {
	method := flag.String("method", "ccn", "ccn or constructive")
	steps := flag.Int("steps", 2_000_000, "steps to learn")
	seed := flag.Uint64("seed", 1, "seed")
	alpha := flag.Float64("alpha", 0, "step size (0: the default)")
	window := flag.Int("window", 2000, "steps between measurements (stage-window)")
	decay := flag.Float64("decay", 0, "decay β of the mean cosine (stage-decay; 0: the default)")
	every := flag.Int("every", 10_000, "steps between lines")
	flag.Parse()
	never := 1 << 40 // the stage never freezes
	r, err := experiments.RunConfig{Method: arch.Method(*method), Steps: *steps, Seed: *seed, StepSize: *alpha,
		StepsPerStage: experiments.AutoStepsPerStage, StageMin: never, StageMax: never, StageWindow: *window, StageDecay: *decay}.Resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	e := r.NewEnv()
	l, layout, opt := r.NewLearner(e.ObservationSize())
	c := r.Config()
	agent := td.New(l, layout, opt, c.Gamma, *c.Lambda)
	n := l.(*forward.Network)
	x := make([]float64, e.ObservationSize())
	_, ret := e.Next(x)
	y := agent.Start(x)
	sq := (y - ret) * (y - ret)
	fmt.Println("step rho error")
	for t := 1; t < *steps; t++ {
		var cu float64
		cu, ret = e.Next(x)
		y, _ = agent.Step(x, cu)
		sq += (y - ret) * (y - ret)
		if (t+1)%*every == 0 {
			rho, _ := n.Drift()
			fmt.Printf("%d %.3f %.5f\n", t+1, rho, sq/float64(*every))
			sq = 0
		}
	}
}
