package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ccn-go/ccn/env/catalog"
)

// runEnvs lists every environment with its inputs, default γ and a line of
// description.
func runEnvs(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("envs", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "name\tinputs\tgamma\tepisodes\tdescription")
	for _, i := range catalog.All() {
		ep := "no"
		if i.Episodic {
			ep = "yes"
		}
		fmt.Fprintf(w, "%s\t%d\t%g\t%s\t%s\n", i.Name, i.Inputs, i.Gamma, ep, i.Description)
	}
	return w.Flush()
}
