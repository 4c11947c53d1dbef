package experiments_test

import (
	"fmt"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
)

// A setting is one row of experiments.Settings (see docs/extending.md):
// its flag and file key, help, the methods it applies to and its
// validation all derive from the row.
func ExampleLookup() {
	s, _ := experiments.Lookup("no-out-bias")
	fmt.Println(s.Key, s.Applies(arch.MethodRTRL), s.Applies(arch.MethodCCN))

	c, keys, err := experiments.DecodeFile([]byte("method: rtrl\nno-out-bias: true\n"), false)
	fmt.Println(keys, err)
	r, _ := c.Resolve()
	d, _ := r.Dense(12)
	fmt.Println("output bias:", d.OutBias)

	_, err = experiments.RunConfig{NoOutBias: true}.Resolve()
	fmt.Println(err)
	// Output:
	// no-out-bias true false
	// [method no-out-bias] <nil>
	// output bias: false
	// experiments: invalid run: no-out-bias does not apply to method ccn
}
