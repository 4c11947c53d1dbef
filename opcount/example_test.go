package opcount_test

import (
	"fmt"

	"github.com/ccn-go/ccn/opcount"
)

func ExampleMatched() {
	// The paper's trace patterning budget: about 4000 operations per step,
	// 12 inputs; every method of the registry the paper's compute model
	// counts, in the registry's order.
	for _, c := range opcount.Matched(4000, 12, []int{15}, []int{4}) {
		fmt.Printf("%-38s %d ops\n", c, c.Ops())
	}
	// Output:
	// ccn features=16 features-per-stage=4   3360 ops
	// columnar features=10                   3920 ops
	// constructive features=29               3850 ops
	// tbptt hidden=3 truncation=15           3072 ops
	// rtu trace-units=21                     3822 ops
	// rtu-linear trace-units=21              3822 ops
}

func ExampleTBPTT() {
	// The paper's best T-BPTT learner: 4 hidden units, truncation 15.
	fmt.Println(opcount.TBPTT(4, 12, 15))
	// Output: 4352
}
