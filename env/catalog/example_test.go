package catalog_test

import (
	"fmt"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
)

func ExampleNew() {
	e, err := catalog.New("freeway", catalog.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	defer catalog.Close(e)
	info, _ := catalog.Lookup("freeway")
	x := make([]float64, e.ObservationSize())
	steps := 0
	for !env.Done(e) {
		e.Next(x)
		steps++
	}
	fmt.Println(info.Inputs, info.Gamma, info.Window, steps)
	// Output:
	// 275 0.98 500000 2501
}
