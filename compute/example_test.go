package compute_test

import (
	"fmt"

	"github.com/ccn-go/ccn/compute"
)

func ExampleMatched() {
	// The paper's trace patterning budget: about 4000 operations per step,
	// 12 inputs.
	for _, c := range compute.Matched(4000, 12, []int{15}, []int{4}) {
		fmt.Printf("%-22s %d ops\n", c, c.Ops())
	}
	// Output:
	// tbptt 15:3             3072 ops
	// columnar 10            3920 ops
	// constructive 29        3850 ops
	// ccn 16 (4 per stage)   3360 ops
}

func ExampleTBPTT() {
	// The paper's best T-BPTT learner: 4 hidden units, truncation 15.
	fmt.Println(compute.TBPTT(4, 12, 15))
	// Output: 4352
}
