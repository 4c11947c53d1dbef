package report

import "sort"

// StudiesRead returns, sorted, the studies whose plans r's figures have
// asked for since the last call, and forgets them.
func StudiesRead(r *Results) []string {
	var out []string
	for s := range r.read {
		out = append(out, s)
	}
	sort.Strings(out)
	r.read = nil
	return out
}
