package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/experiments"
	"gopkg.in/yaml.v3"
)

// ErrInvalid is wrapped by every error that reports a bad experiment file or a
// scale it does not define: the user's input, not a failure of a run.
var ErrInvalid = errors.New("sweep: invalid study")

// StudyError is a bad experiment file or study: every such error of this
// package is one, and matches ErrInvalid. Test for it with errors.As.
type StudyError struct {
	Path    string // the experiment file, when known
	Problem string // what is wrong, in one line
}

func (e *StudyError) Error() string {
	if e.Path != "" {
		return "sweep: invalid study " + e.Path + ": " + e.Problem
	}
	return "sweep: invalid study: " + e.Problem
}

// Unwrap makes a StudyError match ErrInvalid.
func (e *StudyError) Unwrap() error { return ErrInvalid }

func invalid(format string, args ...any) error {
	return &StudyError{Problem: fmt.Sprintf(format, args...)}
}

// Study is an experiment file: the groups of runs of one paper study and the
// scales at which it can be run. Config maps use the keys of `ccn run` (the
// JSON/YAML keys of experiments.RunConfig); a key left out takes the method's
// paper default. seed and steps are set by the scale and may not appear in
// them.
//
// Values of steps-per-stage (unless auto), stage-min, stage-max and
// stage-window are written for the paper's 10M-step runs and scaled, like
// RunConfig's defaults, by steps/10M at every scale:
//
//	steps-per-stage(scale) = max(1, round(steps-per-stage · steps / 10,000,000))
type Study struct {
	// Name identifies the study in plan files and tables: lower-case
	// letters, digits and '-'.
	Name string `yaml:"name"`
	// Description says which figure or table of the paper the study makes.
	Description string `yaml:"description"`
	// Base is applied to every run (environment settings).
	Base map[string]any `yaml:"base"`
	// Groups are the methods or variants compared; each gets its own
	// selection.
	Groups []GroupSpec `yaml:"groups"`
	// Envs, if not empty, runs every group on each environment of the list,
	// as one group per environment (named GROUP@LABEL, see EnvSpec); the
	// base may then not set env or stream. ccn sweep --envs replaces it.
	Envs []string `yaml:"envs"`
	// Scales maps a scale name (paper, quick, smoke) to its steps and seeds.
	Scales map[string]Scale `yaml:"scales"`
	// Selection is how a candidate is selected: PerGroup (the default) per
	// group, so per environment, or AcrossEnvs one candidate per group
	// family for every environment (Plan.RankAcrossEnvs).
	Selection string `yaml:"selection"`
}

// Selection modes of a study (Study.Selection, Plan.Selection).
const (
	// PerGroup selects each group's candidate by its own sweep runs: on a
	// study over environments, per environment.
	PerGroup = "per-group"
	// AcrossEnvs selects, per group family, the candidate with the lowest
	// mean over the environments of its error relative to the best
	// constant prediction's, the same candidate on every environment (the
	// paper's "averaged over all environments", §5).
	AcrossEnvs = "across-envs"
)

// GroupSpec describes one method (or, with Each, one group per variant) and
// the hyperparameters tuned for it.
type GroupSpec struct {
	// Name labels the group (the method in the selection table).
	Name string `yaml:"name"`
	// Config is applied to every run of the group, over Base.
	Config map[string]any `yaml:"config"`
	// Each, if not empty, makes one group per entry, named Name/entry-name;
	// an entry is a config map over Config with an optional "name" key
	// (default: its key=value pairs).
	Each []map[string]any `yaml:"each"`
	// Grid lists the values of each tuned key; the candidates are the
	// Cartesian product in sorted key order. An empty grid is one candidate.
	Grid map[string][]any `yaml:"grid"`
}

// Scale sets a study's run length and seeds.
type Scale struct {
	// Steps is the length of every run (of the sweep runs, if FinalSteps is
	// set).
	Steps int `yaml:"steps"`
	// FinalSteps, if not 0, is the length of the final runs: a scale that
	// checks step sizes on shorter runs than it reports. steps-per-stage is
	// scaled by each stage's own length.
	FinalSteps int `yaml:"final-steps"`
	// SweepSeeds are the seeds every candidate runs with for the selection
	// (groups with one candidate skip the sweep).
	SweepSeeds Seeds `yaml:"sweep-seeds"`
	// FinalSeeds are the seeds the selected candidate runs with. A final run
	// with a sweep seed is the sweep run itself (same configuration, same
	// directory).
	FinalSeeds Seeds `yaml:"final-seeds"`
	// Set is applied to every run over the groups' configs (e.g. window,
	// log-every), a setting only to the groups whose method it applies to
	// (norm-decay: not to T-BPTT); a setting that applies to no group is an
	// error.
	Set map[string]any `yaml:"set"`
	// Grid replaces the value lists of the keys it names in every group
	// whose grid tunes that key.
	Grid map[string][]any `yaml:"grid"`
	// Envs, if not empty, replaces the study's environment list at this
	// scale (a smaller scale on fewer games).
	Envs []string `yaml:"envs"`
	// Only, if not empty, names the groups run at this scale (names after
	// the expansion of each, before the environments: tbptt/8:5); the others
	// are left out.
	Only []string `yaml:"only"`
	// Select fixes, for the groups it names (names as in Only), tuned
	// settings to one value each at this scale, over Grid: a smaller scale
	// runs a larger scale's selection without tuning. A list of values
	// instead narrows the setting to those values for that group alone (a
	// few step sizes where the other groups tune more). A setting the group
	// does not tune is an error.
	Select map[string]map[string]any `yaml:"select"`
	// Merge makes, at this scale, one group of the groups it lists (names as
	// in Only, after Select), named by its key: their candidates compete in
	// one selection (e.g. T-BPTT's pairs k:H, each over its own step sizes,
	// so that the final stage runs the best pair only). The merged group's
	// candidates are labelled by every setting in which they differ.
	Merge map[string][]string `yaml:"merge"`
}

// Seeds is a list of seeds, written in a file as a list of integers or as a
// string of comma-separated integers and inclusive ranges: "0-4", "0-2,7".
type Seeds []uint64

var _ yaml.Unmarshaler = (*Seeds)(nil)

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Seeds) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		var v []uint64
		if err := n.Decode(&v); err != nil {
			return err
		}
		*s = v
		return nil
	case yaml.ScalarNode:
		v, err := ParseSeeds(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		*s = v
		return nil
	}
	return fmt.Errorf("line %d: seeds must be a list or a string like \"0-4\"", n.Line)
}

// ParseSeeds parses "0-4", "0-2,7" or "3" into seeds in the order written.
func ParseSeeds(text string) (Seeds, error) {
	var out Seeds
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(strings.TrimSpace(lo), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("seeds %q: %q is not a seed or range", text, part)
		}
		b := a
		if isRange {
			if b, err = strconv.ParseUint(strings.TrimSpace(hi), 10, 64); err != nil || b < a {
				return nil, fmt.Errorf("seeds %q: %q is not a range lo-hi with lo ≤ hi", text, part)
			}
		}
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
	}
	return out, nil
}

// Load reads and checks an experiment file.
func Load(path string) (Study, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Study{}, invalid("%v", err)
	}
	s, err := Parse(b)
	if se := (*StudyError)(nil); errors.As(err, &se) {
		se.Path = path
	}
	return s, err
}

var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// Parse reads an experiment file's YAML (or JSON) and checks its structure and
// keys; Plan checks the run configurations themselves.
func Parse(data []byte) (Study, error) {
	var s Study
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return s, invalid("empty file")
		}
		return s, invalid("%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	bad := func(format string, args ...any) error {
		return invalid("%s", fmt.Sprintf(format, args...))
	}
	if !namePattern.MatchString(s.Name) {
		return s, bad("name %q must be lower-case letters, digits and '-'", s.Name)
	}
	if len(s.Groups) == 0 {
		return s, bad("no groups")
	}
	if len(s.Scales) == 0 {
		return s, bad("no scales")
	}
	if err := checkKeys("base", s.Base); err != nil {
		return s, err
	}
	if err := s.checkEnvs(); err != nil {
		return s, err
	}
	switch s.Selection {
	case "", PerGroup:
	case AcrossEnvs:
		if len(s.Envs) == 0 {
			return s, bad("selection %s needs envs", AcrossEnvs)
		}
	default:
		return s, bad("selection %q must be %s or %s", s.Selection, PerGroup, AcrossEnvs)
	}
	for _, g := range s.Groups {
		if g.Name == "" || strings.ContainsAny(g.Name, ",\n\"") {
			return s, bad("group name %q must be non-empty without commas or quotes", g.Name)
		}
		where := "group " + g.Name
		if err := checkKeys(where+" config", g.Config); err != nil {
			return s, err
		}
		for i, e := range g.Each {
			rest := map[string]any{}
			for k, v := range e {
				if k != "name" {
					rest[k] = v
				}
			}
			if err := checkKeys(fmt.Sprintf("%s each[%d]", where, i), rest); err != nil {
				return s, err
			}
		}
		if err := checkGrid(where+" grid", g.Grid); err != nil {
			return s, err
		}
	}
	for name, sc := range s.Scales {
		where := "scale " + name
		switch {
		case !namePattern.MatchString(name):
			return s, bad("scale name %q must be lower-case letters, digits and '-'", name)
		case sc.Steps < 1:
			return s, bad("%s: steps must be at least 1", where)
		case sc.FinalSteps < 0:
			return s, bad("%s: final-steps must be at least 1 (or left out)", where)
		case len(sc.FinalSeeds) == 0:
			return s, bad("%s: no final-seeds", where)
		case hasDuplicate(sc.SweepSeeds) || hasDuplicate(sc.FinalSeeds):
			return s, bad("%s: a seed is listed twice", where)
		}
		if err := checkKeys(where+" set", sc.Set); err != nil {
			return s, err
		}
		if err := checkGrid(where+" grid", sc.Grid); err != nil {
			return s, err
		}
		for g, m := range sc.Select {
			for k, v := range m {
				if err := checkGrid(where+" select "+g, map[string][]any{k: selectValues(v)}); err != nil {
					return s, err
				}
			}
		}
		merged := map[string]string{}
		for _, m := range slices.Sorted(maps.Keys(sc.Merge)) {
			if m == "" || strings.ContainsAny(m, ",\n\"@") {
				return s, bad("%s: merge name %q must be non-empty without commas, quotes or @", where, m)
			}
			if len(sc.Merge[m]) < 2 {
				return s, bad("%s: merge %s lists %d groups, want at least 2", where, m, len(sc.Merge[m]))
			}
			for _, g := range sc.Merge[m] {
				if other, dup := merged[g]; dup {
					return s, bad("%s: group %s is merged twice (into %s and %s)", where, g, other, m)
				}
				merged[g] = m
			}
		}
	}
	return s, nil
}

func hasDuplicate(s Seeds) bool {
	c := slices.Clone(s)
	slices.Sort(c)
	return len(slices.Compact(c)) != len(s)
}

// zeroMeansDefault reports whether setting k refuses an explicit 0.
func zeroMeansDefault(k string) bool {
	s, _ := experiments.Lookup(k)
	return s.ZeroMeansDefault()
}

// checkKeys checks that every key of m is a RunConfig key other than seed
// and steps, with no explicit zero where zero means "default".
func checkKeys(where string, m map[string]any) error {
	known := ConfigKeys()
	for k, v := range m {
		switch {
		case k == "seed" || k == "steps":
			return invalid("%s: %s is set by the scale, not in the study", where, k)
		case !slices.Contains(known, k):
			return invalid("%s: unknown key %q (want one of %s)", where, k, strings.Join(known, ", "))
		case zeroMeansDefault(k) && fmt.Sprint(v) == "0":
			return invalid("%s: %s must be positive, got 0", where, k)
		}
	}
	return nil
}

// selectValues returns the values a select entry gives a setting: its list,
// or its one value.
func selectValues(v any) []any {
	if vs, list := v.([]any); list {
		return vs
	}
	return []any{v}
}

func checkGrid(where string, g map[string][]any) error {
	flat := map[string]any{}
	for k, vs := range g {
		if len(vs) == 0 {
			return invalid("%s: %s has no values", where, k)
		}
		for _, v := range vs {
			flat[k] = v
			if err := checkKeys(where, flat); err != nil {
				return err
			}
		}
	}
	return nil
}

// ScaleNames returns the study's scale names, sorted.
func (s Study) ScaleNames() []string {
	names := make([]string, 0, len(s.Scales))
	for n := range s.Scales {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
