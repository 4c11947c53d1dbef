package report

import (
	"math"
	"testing"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/experiments"
)

// TestBaselineSources: return_variance of the runs when they all hold it
// (their mean), else the whole stream's variance of the first run's stream.
func TestBaselineSources(t *testing.T) {
	cfg := experiments.RunConfig{Env: "trace-patterning", Method: "ccn", Steps: 3000, Seed: 7, Window: 1000}
	sum := func(v float64) Run { return Run{Summary: experiments.Summary{Config: cfg, ReturnVariance: v}} }
	g := Group{Study: "s", Scale: "x", Name: "g", Config: cfg, Runs: []Run{sum(0.01), sum(0.03)}}
	b, err := baseline(g)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Window || math.Abs(b.MSE-0.02) > 1e-15 || b.Steps != 1000 {
		t.Errorf("from return_variance: got %+v, want the mean 0.02 over a 1000-step window", b)
	}

	g.Runs = []Run{sum(0.01), sum(0)} // one run written before return_variance existed
	b, err = baseline(g)
	if err != nil {
		t.Fatal(err)
	}
	_, want := env.ConstantBaseline(env.NewTracePatterning(env.TraceConfig{}, 7), 3000)
	if b.Window || math.Abs(b.MSE-want) > 1e-12 || b.Steps != 3000 || b.Seed != 7 {
		t.Errorf("whole stream: got %+v, want MSE %v over 3000 steps of seed 7", b, want)
	}

	if _, err := baseline(Group{Study: "s", Scale: "x", Name: "g"}); err == nil {
		t.Error("a group without runs has no baseline")
	}
}
