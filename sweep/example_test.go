package sweep_test

import (
	"fmt"

	"github.com/ccn-go/ccn/sweep"
)

func ExampleStudy_Plan() {
	study, err := sweep.Parse([]byte(`
name: demo
groups:
  - name: ccn
    config: {method: ccn}
    grid: {step-size: [1.0e-3, 3.0e-4], epsilon: [0.01, 0.001]}
  - name: tbptt
    config: {method: tbptt, hidden: 4, truncation: 15}
    grid: {step-size: [1.0e-3, 3.0e-4]}
scales:
  quick: {steps: 1000000, sweep-seeds: 0-1, final-seeds: 0-4}
`))
	if err != nil {
		panic(err)
	}
	plan, err := study.Plan("quick")
	if err != nil {
		panic(err)
	}
	for g, grp := range plan.Groups {
		fmt.Printf("%s: %d candidates, %d sweep runs, then the best over %d seeds\n",
			grp.Name, len(grp.Candidates), len(plan.SweepTasks(g)), len(plan.FinalSeeds))
	}
	c := plan.Groups[0].Candidates[0].Config.Config()
	fmt.Println(plan.Groups[0].Candidates[0].Label, "steps-per-stage", c.StepsPerStage)
	// Output:
	// ccn: 4 candidates, 8 sweep runs, then the best over 5 seeds
	// tbptt: 2 candidates, 4 sweep runs, then the best over 5 seeds
	// epsilon=0.01 step-size=0.001 steps-per-stage 250000
}

func ExampleParseSeeds() {
	s, _ := sweep.ParseSeeds("0-4,10")
	fmt.Println(s)
	// Output: [0 1 2 3 4 10]
}
