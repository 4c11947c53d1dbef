// Command spikes instruments one Columnar/Constructive/CCN run on trace
// patterning: every 250k steps it prints the mean squared return error of
// that period, the largest |ĥ_k| of each normalized feature ĥ_k = (h_k −
// μ_k)/max(ε, σ_k) (paper §3.4), the head weights and the head bias. It made
// the numbers of README "The paper's claims" on Constructive's instability:
//
//	go run ./internal/spikes -method constructive -seed 2 -alpha 1e-3
//
// The learner, optimizer and TD(λ) agent are those of ccn run with the same
// settings; nothing is written.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
	"github.com/ccn-go/ccn/forward"
)

func main() {
	method := flag.String("method", "constructive", "ccn, columnar or constructive")
	seed := flag.Uint64("seed", 2, "seed")
	alpha := flag.Float64("alpha", 1e-3, "step size")
	eps := flag.Float64("eps", 0.001, "normalization floor ε")
	steps := flag.Int("steps", 10_000_000, "steps")
	every := flag.Int("every", 250_000, "steps per printed period")
	flag.Parse()

	r, err := experiments.RunConfig{Method: arch.Method(*method), Seed: *seed, StepSize: *alpha,
		Epsilon: *eps, Steps: *steps}.Resolve()
	if err != nil {
		fmt.Fprintln(os.Stderr, "spikes:", err)
		os.Exit(2)
	}
	cfg := r.Config()
	e := r.NewEnv()
	l, layout, opt := r.NewLearner(e.ObservationSize())
	n, ok := l.(*forward.Network)
	if !ok {
		fmt.Fprintln(os.Stderr, "spikes: method", *method, "is not a column network")
		os.Exit(2)
	}
	a := experiments.NewTD(l, layout, opt, cfg.Gamma, *cfg.Lambda)
	x := make([]float64, e.ObservationSize())
	_, ret := e.Next(x)
	y := a.Start(x)
	var sum float64
	maxH := make([]float64, cfg.Features)
	for t := 0; t < *steps; t++ {
		if t > 0 {
			var c float64
			c, ret = e.Next(x)
			y, _ = a.Step(x, c)
		}
		sum += (y - ret) * (y - ret)
		for k, v := range n.NormalizedFeatures() {
			maxH[k] = math.Max(maxH[k], math.Abs(v))
		}
		if (t+1)%*every == 0 {
			top, p := n.Topology(), n.Params()
			F := top.Features()
			fmt.Printf("t=%d mse=%.4f max|ĥ|=%.1f w=%.3f b=%.3f\n", t+1, sum/float64(*every),
				maxH[:F], p[top.OffHead():top.OffHead()+F], p[top.OffHead()+F])
			sum = 0
			clear(maxH)
		}
	}
}
