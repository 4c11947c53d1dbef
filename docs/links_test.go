package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The README is a front page: at most this many lines and bytes.
const (
	readmeMaxLines = 250
	readmeMaxBytes = 25 * 1024
)

// pages returns the Markdown files the tests check, relative to docs/: the
// README, CONTRIBUTING.md and every page of docs/.
func pages(t *testing.T) []string {
	t.Helper()
	mds, err := filepath.Glob("*.md")
	if err != nil || len(mds) == 0 {
		t.Fatalf("no Markdown files in docs/ (%v)", err)
	}
	return append([]string{"../README.md", "../CONTRIBUTING.md"}, mds...)
}

var (
	fenceRE  = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[^\\n]*$")
	codeRE   = regexp.MustCompile("`[^`\\n]*`")
	linkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`) // the target of a link or image, nested or not
	headerRE = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
)

// prose returns text without its fenced code blocks and, if inline is set,
// without its inline code spans: what Markdown renders as links and headings.
func prose(text string, inline bool) string {
	text = fenceRE.ReplaceAllString(text, "")
	if inline {
		text = codeRE.ReplaceAllString(text, "")
	}
	return text
}

// slug is GitHub's anchor for a heading: lower case, punctuation other than
// '-' and '_' dropped, spaces turned into '-'.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown text's headings, with GitHub's
// -1, -2, ... suffixes for repeated ones.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range headerRE.FindAllStringSubmatch(prose(text, false), -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// brokenLinks returns the relative links of the Markdown file path that do
// not resolve: to a file that does not exist, or to a heading that the
// target Markdown file does not have. Web links are not followed.
func brokenLinks(path string) (bad []string, checked int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	for _, m := range linkRE.FindAllStringSubmatch(prose(string(b), true), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		checked++
		file, anchor, _ := strings.Cut(target, "#")
		resolved := path
		if file != "" {
			resolved = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
		}
		if _, err := os.Stat(resolved); err != nil {
			bad = append(bad, target)
			continue
		}
		if anchor == "" {
			continue
		}
		if !strings.HasSuffix(resolved, ".md") {
			bad = append(bad, target) // anchors into other files are not checked
			continue
		}
		tb, err := os.ReadFile(resolved)
		if err != nil {
			return nil, 0, err
		}
		if !anchors(string(tb))[anchor] {
			bad = append(bad, target)
		}
	}
	return bad, checked, nil
}

// TestLinksResolve: every relative link of the README, CONTRIBUTING.md and
// docs/*.md leads to an existing file, and every #anchor to a heading of it.
func TestLinksResolve(t *testing.T) {
	total := 0
	for _, p := range pages(t) {
		bad, n, err := brokenLinks(p)
		if err != nil {
			t.Fatal(err)
		}
		total += n
		for _, l := range bad {
			t.Errorf("%s links to %s, which does not resolve", p, l)
		}
	}
	if total < 60 {
		t.Errorf("checked only %d links, want at least 60: the pattern stopped matching", total)
	}
}

// TestBrokenLinksFixture proves the link check has teeth: exactly the broken
// links of the fixture are reported.
func TestBrokenLinksFixture(t *testing.T) {
	bad, checked, err := brokenLinks(filepath.Join("testdata", "links.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"missing.md", "links.md#no-such-heading", "#nor-here", "../../figures/paper/none.png", "names.md#x", "missing-target.md"}
	slices.Sort(bad)
	slices.Sort(want)
	if !slices.Equal(bad, want) {
		t.Errorf("broken links in testdata/links.md: got %q, want %q", bad, want)
	}
	if checked != 12 {
		t.Errorf("checked %d links in testdata/links.md, want 12", checked)
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"The paper's claims", "the-papers-claims"},
		{"SIMD lanes (`GOEXPERIMENT=simd`)", "simd-lanes-goexperimentsimd"},
		{"A stream (`ccn stream --env E --steps N`)", "a-stream-ccn-stream---env-e---steps-n"},
		{"curves.csv", "curvescsv"},
		{"make plots: the figures from one command", "make-plots-the-figures-from-one-command"},
		{"gradient_bias.csv", "gradient_biascsv"},
	} {
		if got := slug(tc.heading); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
	a := anchors("# A\n\n```\n# not a heading\n```\n\n## A\n")
	if !a["a"] || !a["a-1"] || a["not-a-heading"] || len(a) != 2 {
		t.Errorf("anchors: %v, want a and a-1", a)
	}
}

// readmeTooLong returns why text is over the front page's bound, or "".
func readmeTooLong(text string) string {
	lines := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") && text != "" {
		lines++
	}
	switch {
	case lines > readmeMaxLines:
		return fmt.Sprintf("%d lines, more than %d", lines, readmeMaxLines)
	case len(text) > readmeMaxBytes:
		return fmt.Sprintf("%d bytes, more than %d", len(text), readmeMaxBytes)
	}
	return ""
}

// TestReadmeIsAFrontPage: README.md stays within the front page's bound, and
// keeps the set-up and test commands near the top.
func TestReadmeIsAFrontPage(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if why := readmeTooLong(string(b)); why != "" {
		t.Errorf("README.md has %s: move depth into a page of docs/", why)
	}
	// The tests' command is make test (the Makefile's help and .ci/run call
	// it too), within the first 40 lines.
	head := strings.Join(strings.SplitN(string(b), "\n", 41)[:40], "\n")
	if !regexp.MustCompile(`(?m)^make test\s`).MatchString(head) || !strings.Contains(head, "make build") {
		t.Error("README.md lacks `make build` and `make test` in its first 40 lines")
	}
	// Teeth: the bound catches an over-long or over-large text.
	if readmeTooLong(strings.Repeat("x\n", readmeMaxLines+1)) == "" ||
		readmeTooLong(strings.Repeat("x", readmeMaxBytes+1)) == "" ||
		readmeTooLong(strings.Repeat("x\n", readmeMaxLines)) != "" {
		t.Error("readmeTooLong does not enforce the bound")
	}
}

// TestTestCommandIsMakeTest: the README's test command is the one the
// Makefile's help advertises and CI runs.
func TestTestCommandIsMakeTest(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^test:`).Match(mk) || !strings.Contains(string(mk), `@echo "make test `) {
		t.Error("the Makefile lacks a test target in its help")
	}
	if !regexp.MustCompile(`(?m)^make test$`).Match(ci) {
		t.Error(".ci/run does not run make test")
	}
}

// pathRE matches a backquoted path of the repository, `dir/file` or `dir/`:
// lower-case segments without placeholders (DIR, SCALE) or globs.
var pathRE = regexp.MustCompile("`([a-z][a-z0-9_.-]*(?:/[a-z0-9_.-]+)*/?)`")

// generated are the directories that commands write and the repository does
// not hold: paths under them name outputs, not files to find.
var generated = []string{"bin", "runs", "results/quick", "results/smoke", "results/medium", "figures/medium", "results/truncation", "figures/smoke", "figures/mine", "results/mine"}

// missingPaths returns the backquoted paths of text, outside fenced code,
// whose first segment is a directory of the repository root but which do
// not exist there, and how many it checked.
func missingPaths(text, root string) (bad []string, checked int) {
	for _, m := range pathRE.FindAllStringSubmatch(prose(text, false), -1) {
		p := m[1]
		first, _, ok := strings.Cut(p, "/")
		if !ok {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, first)); err != nil || !fi.IsDir() {
			continue
		}
		if slices.ContainsFunc(generated, func(g string) bool { return p == g || strings.HasPrefix(p, g+"/") }) {
			continue
		}
		checked++
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			bad = append(bad, p)
		}
	}
	return bad, checked
}

// TestQuotedPathsExist: every file or directory of the repository that the
// docs name in backquotes exists.
func TestQuotedPathsExist(t *testing.T) {
	total := 0
	for _, p := range pages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		bad, n := missingPaths(string(b), "..")
		total += n
		for _, q := range bad {
			t.Errorf("%s names %s, which does not exist", p, q)
		}
	}
	if total < 40 {
		t.Errorf("checked only %d paths, want at least 40", total)
	}
	// Teeth: a misspelled path is caught, a generated one and a placeholder
	// are not paths to find.
	bad, n := missingPaths("`experiments/configs/main-comparision.yaml` `results/quick/selection.csv` `results/SCALE/x` `scripts/paper-sweep.sh`", "..")
	if !slices.Equal(bad, []string{"experiments/configs/main-comparision.yaml"}) || n != 2 {
		t.Errorf("missingPaths: got %q after %d checks, want the misspelled path after 2", bad, n)
	}
}

var (
	makeRE   = regexp.MustCompile(`(?m)(?:^|[\s(` + "`" + `])make ([a-z][a-z-]*)`)
	ruleRE   = regexp.MustCompile(`(?m)^([a-z][a-z-]*):`)
	ccnRE    = regexp.MustCompile(`(?m)(?:^|[\s(` + "`" + `]|bin/)ccn ([a-z](?:[a-z-]*[a-z])?)\b`)
	subcmdRE = regexp.MustCompile(`(?m)^\t\t"([a-z][a-z-]*)":\s+\{`)
)

// code returns the code of a Markdown text: its fenced blocks and its inline
// code spans, one per line.
func code(text string) string {
	spans := fenceRE.FindAllString(text, -1)
	spans = append(spans, codeRE.FindAllString(prose(text, false), -1)...)
	return strings.Join(spans, "\n")
}

// unknownCommands returns the make targets and ccn subcommands that the code
// of text (code blocks and inline code) names but that do not exist.
func unknownCommands(text string, targets, subcommands map[string]bool) (bad []string, checked int) {
	text = code(text)
	for _, m := range makeRE.FindAllStringSubmatch(text, -1) {
		checked++
		if !targets[m[1]] {
			bad = append(bad, "make "+m[1])
		}
	}
	for _, m := range ccnRE.FindAllStringSubmatch(text, -1) {
		checked++
		if !subcommands[m[1]] {
			bad = append(bad, "ccn "+m[1])
		}
	}
	return bad, checked
}

// TestCommandsExist: every `make TARGET` the docs name is a rule of the
// Makefile, every `ccn SUBCOMMAND` a subcommand of cmd/ccn.
func TestCommandsExist(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range ruleRE.FindAllStringSubmatch(string(mk), -1) {
		targets[m[1]] = true
	}
	main, err := os.ReadFile("../cmd/ccn/main.go")
	if err != nil {
		t.Fatal(err)
	}
	subcommands := map[string]bool{}
	for _, m := range subcmdRE.FindAllStringSubmatch(string(main), -1) {
		subcommands[m[1]] = true
	}
	if len(targets) < 8 || len(subcommands) < 10 {
		t.Fatalf("found %d make targets and %d ccn subcommands: the patterns stopped matching", len(targets), len(subcommands))
	}
	total := 0
	for _, p := range pages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		bad, n := unknownCommands(string(b), targets, subcommands)
		total += n
		for _, c := range bad {
			t.Errorf("%s names `%s`, which does not exist", p, c)
		}
	}
	if total < 100 {
		t.Errorf("checked only %d commands, want at least 100", total)
	}
	// Teeth: a target or subcommand that does not exist is caught.
	bad, _ := unknownCommands("`make tests` and `bin/ccn runs --x`, `make test`, `ccn verify`; make it so, ccn runs", targets, subcommands)
	if !slices.Equal(bad, []string{"make tests", "ccn runs"}) {
		t.Errorf("unknownCommands: got %q, want make tests and ccn runs", bad)
	}
}

var (
	hashRE    = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	digitRE   = regexp.MustCompile(`[0-9]`)
	letterRE  = regexp.MustCompile(`[a-f]`)
	historyRE = regexp.MustCompile(`(?i)this session|previous session|load average|\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{4}\b`)
)

// externalCommits are commits of other repositories the docs pin (the
// authors' code they were compared with), not history of this one.
var externalCommits = map[string]bool{"ade18a5": true}

// history returns what in text reads as history rather than current state:
// commit hashes of this repository, "this session", load averages, dates.
func history(text string) []string {
	var out []string
	for _, h := range hashRE.FindAllString(text, -1) {
		if digitRE.MatchString(h) && letterRE.MatchString(h) && !externalCommits[h] {
			out = append(out, h)
		}
	}
	return append(out, historyRE.FindAllString(text, -1)...)
}

// TestDocsAreCurrent: the pages state what is true now; history belongs in
// commit messages.
func TestDocsAreCurrent(t *testing.T) {
	for _, p := range pages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range history(string(b)) {
			t.Errorf("%s holds %q: pages state the current state, history goes in commit messages", p, h)
		}
	}
	got := history("measured at 3e10c0a this session, load average 4, on 26 Nov 2026; the authors' ade18a5; 1e-10, 0.00242")
	want := []string{"3e10c0a", "this session", "load average", "26 Nov 2026"}
	if !slices.Equal(got, want) {
		t.Errorf("history: got %q, want %q", got, want)
	}
}
