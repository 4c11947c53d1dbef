package td_test

import (
	"fmt"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/forward"
	"github.com/ccn-go/ccn/td"
)

// A CCN learning trace patterning online with TD(λ) and RMSProp: the agent
// follows the network through its stage changes.
func ExampleNew() {
	e := env.NewTracePatterning(env.TraceConfig{}, 1)
	net := forward.NewNetwork(forward.NetworkConfig{
		Inputs: e.ObservationSize(), FeaturesPerStage: 2, MaxFeatures: 6, StepsPerStage: 1000, Seed: 1,
	})
	agent := td.New(net, td.NetworkLayout(net.Topology()), &td.RMSProp{StepSize: 3e-4}, 0.9, 0.99)
	x := make([]float64, e.ObservationSize())
	e.Next(x)
	agent.Start(x)
	for range 5000 {
		c, _ := e.Next(x)
		if _, ok := agent.Step(x, c); !ok {
			fmt.Println("diverged")
			return
		}
	}
	fmt.Println("stage", net.Stage(), "features", net.Features(), "learnable", len(agent.Trace()))
	// Output:
	// stage 2 features 6 learnable 151
}
