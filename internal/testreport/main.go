// Command testreport reads `go test -json` on standard input and prints what
// `go test` prints without -v (one line per package, the output of failing
// tests), followed by every skipped test with its reason, so that a test
// skipped for a missing tool (GNU parallel, make, git) is visible in
// `make test`. Tests skipped for their tier (internal/testtier: left to
// `make test-full`) are counted on one line instead. It exits 1 if any test or package failed (or the input holds
// no test events), 0 otherwise.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ccn-go/ccn/internal/testtier"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

func main() { os.Exit(report(os.Stdin, os.Stdout)) }

// report reads test2json events from r and writes the summary to w; it
// returns the exit status.
func report(r io.Reader, w io.Writer) int {
	type key struct{ pkg, test string }
	output := map[key][]string{}
	var skipped []string
	fullTier := 0
	failed, seen := false, false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(w, sc.Text()) // build errors and the like are not JSON
			failed = true
			continue
		}
		seen = true
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			output[k] = append(output[k], e.Output)
		case "skip":
			if reason := skipReason(output[k]); strings.HasPrefix(reason, testtier.SkipReason) {
				fullTier++
			} else if e.Test != "" {
				skipped = append(skipped, fmt.Sprintf("  %s %s: %s", e.Package, e.Test, reason))
			}
			delete(output, k)
		case "fail":
			failed = true
			if e.Test != "" {
				fmt.Fprint(w, strings.Join(output[k], ""))
			} else {
				fmt.Fprint(w, strings.Join(output[k], "")) // the package's own lines: FAIL, panics
			}
			delete(output, k)
		case "pass":
			if e.Test == "" {
				fmt.Fprintf(w, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
			}
			delete(output, k)
		}
	}
	if fullTier > 0 {
		fmt.Fprintf(w, "%d tests left to the full tier (make test-full runs them)\n", fullTier)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "SKIPPED %d tests, with their reasons (one skipped for a missing tool leaves its path untested):\n%s\n", len(skipped), strings.Join(skipped, "\n"))
	}
	if failed || !seen {
		return 1
	}
	return 0
}

// skipReason returns the message a test gave t.Skip, from its output lines.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		// t.Skip output is "file_test.go:NN: message".
		if _, after, ok := strings.Cut(l, ".go:"); ok {
			if _, m, ok := strings.Cut(after, ": "); ok {
				l = m
			}
		}
		msg = append(msg, l)
	}
	if len(msg) == 0 {
		return "(no reason given)"
	}
	return strings.Join(msg, " ")
}
