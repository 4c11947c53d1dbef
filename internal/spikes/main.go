// Command spikes instruments one Columnar/Constructive/CCN run: every period
// of steps it prints the mean squared return error of that period, the largest
// |y − G| in it, the largest |ĥ_k| of each normalized feature ĥ_k = (h_k −
// μ_k)/max(ε, σ_k) (paper §3.4), max(ε, σ_k) at the step of that largest
// |ĥ_k|, the head weights and the head bias. It made the numbers of docs/results.md
// on Constructive's instability and of docs/atari.md on Columnar's bursts:
//
//	go run ./internal/spikes -method constructive -seed 2 -alpha 1e-3
//	go run ./internal/spikes -env space-invaders -method columnar -features 6 -seed 100 -alpha 3e-4 -steps 812000 -from 806000 -every 1000 -step-from 808880 -step-to 809060
//
// -run DIR replays a finished run with its own settings (its summary.json's
// config), e.g. a medium-scale Atari run:
//
//	go run ./internal/spikes -run results/medium/runs/ID -every 500000
//
// -step-from and -step-to print single steps (the action, the episode ends).
// The learner, optimizer and TD(λ) agent (with episode ends on the pixel
// games) are those of ccn run with the same settings; nothing is written.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/atari"
	"github.com/ccn-go/ccn/env/catalog"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

func main() {
	envName := flag.String("env", experiments.EnvTracePatterning, "environment (ccn envs)")
	method := flag.String("method", "constructive", "ccn, columnar or constructive")
	features := flag.Int("features", 0, "total features (0: the method's default)")
	fps := flag.Int("features-per-stage", 0, "features a stage adds (0: the method's default)")
	perStage := flag.Int("steps-per-stage", 0, "steps per stage, as given (0: the default, scaled to -steps)")
	seed := flag.Uint64("seed", 2, "seed")
	alpha := flag.Float64("alpha", 1e-3, "step size")
	eps := flag.Float64("eps", 0.001, "normalization floor ε")
	steps := flag.Int("steps", 10_000_000, "steps")
	every := flag.Int("every", 250_000, "steps per printed period")
	from := flag.Int("from", 0, "steps before the first printed period")
	stepFrom := flag.Int("step-from", -1, "print every step t with step-from ≤ t < step-to (pixel games: t, action, cumulant, done, G, y, ĥ)")
	stepTo := flag.Int("step-to", -1, "see step-from")
	run := flag.String("run", "", "a run's directory: replay it with its summary.json's settings (the flags above but -steps, -every, -from, -step-from and -step-to are ignored; -steps defaults to the run's)")
	flag.Parse()

	rc := experiments.RunConfig{Env: *envName, Method: arch.Method(*method), Features: *features,
		FeaturesPerStage: *fps, StepsPerStage: *perStage, Seed: *seed, StepSize: *alpha, Epsilon: *eps, Steps: *steps}
	if *run != "" {
		s, err := experiments.ReadSummary(*run)
		if err != nil {
			fmt.Fprintln(os.Stderr, "spikes:", err)
			os.Exit(2)
		}
		rc = s.Config
		stepsSet := false
		flag.Visit(func(f *flag.Flag) { stepsSet = stepsSet || f.Name == "steps" })
		if stepsSet {
			rc.Steps = *steps
		} else {
			*steps = rc.Steps
		}
	}
	r, err := rc.Resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spikes:", err)
		os.Exit(2)
	}
	cfg := r.Config()
	e, err := r.OpenEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spikes:", err)
		os.Exit(2)
	}
	l, layout, opt := r.NewLearner(e.ObservationSize())
	n, ok := l.(*forward.Network)
	if !ok {
		fmt.Fprintln(os.Stderr, "spikes: method", *method, "is not a column network")
		os.Exit(2)
	}
	defer catalog.Close(e)
	a := td.New(l, layout, opt, cfg.Gamma, *cfg.Lambda)
	episodic, _ := e.(env.Episodic)
	endEpisode := func() {
		if episodic != nil && episodic.Done() {
			a.EndEpisode()
		}
	}
	x := make([]float64, e.ObservationSize())
	_, ret := e.Next(x)
	y := a.Start(x)
	endEpisode()
	var sum, maxErr float64
	maxH := make([]float64, cfg.Features)
	sigma := make([]float64, cfg.Features) // max(ε, σ_k) at the step of maxH[k]
	for t := 0; t < *steps; t++ {
		var c float64
		if t > 0 {
			c, ret = e.Next(x)
			y, _ = a.Step(x, c)
			endEpisode()
		}
		if t >= *stepFrom && t < *stepTo {
			done := episodic != nil && episodic.Done()
			fmt.Printf("step %d action %d c=%g done=%v G=%.3f y=%.3f ĥ=%.2f\n", t, action(x), c, done, ret, y,
				n.NormalizedFeatures())
		}
		if t < *from {
			continue
		}
		sum += (y - ret) * (y - ret)
		maxErr = math.Max(maxErr, math.Abs(y-ret))
		scales := n.FeatureScales()
		for k, v := range n.NormalizedFeatures() {
			if math.Abs(v) >= maxH[k] {
				maxH[k], sigma[k] = math.Abs(v), 1/scales[k]
			}
		}
		if (t+1-*from)%*every == 0 {
			top, p := n.Topology(), n.Params()
			F := top.Features()
			fmt.Printf("t=%d mse=%.4f max|y-G|=%.2f max|ĥ|=%.1f σ=%.4f w=%.3f b=%.3f\n", t+1, sum/float64(*every), maxErr,
				maxH[:F], sigma[:F], p[top.OffHead():top.OffHead()+F], p[top.OffHead()+F])
			sum, maxErr = 0, 0
			clear(maxH)
			clear(sigma)
		}
	}
}

// action returns the index of the action slot set in a pixel game's
// observation x, or −1 if x is not one (or no slot is set).
func action(x []float64) int {
	if len(x) != atari.Inputs {
		return -1
	}
	for i, v := range x[atari.ActionStart:atari.RewardIndex] {
		if v == 1 {
			return i
		}
	}
	return -1
}
