package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"
)

// Plan is a study expanded at one scale: every group with its candidate
// configurations, and the seeds of the two stages. It is saved in the results
// directory so that Collect knows the groups without the experiment file.
type Plan struct {
	Study       string `json:"study"`
	Scale       string `json:"scale"`
	Description string `json:"description,omitempty"`
	SweepSeeds  Seeds  `json:"sweep_seeds"`
	FinalSeeds  Seeds  `json:"final_seeds"`
	// Selection is the study's selection mode, AcrossEnvs or empty (per
	// group).
	Selection string  `json:"selection,omitempty"`
	Groups    []Group `json:"groups"`
}

// Group is one method or variant: its candidates compete in the selection.
type Group struct {
	Name string `json:"name"`
	// Family is the group's name in the study, without the environment;
	// Env is the label of the environment (EnvSpec) when the study runs its
	// groups over a list of environments: Name is then Family@Env.
	Family string `json:"family,omitempty"`
	Env    string `json:"env,omitempty"`
	// Tuned are the grid keys, sorted; the candidates differ only in them.
	// (A merged group's are the keys in which its candidates differ.)
	Tuned      []string    `json:"tuned"`
	Candidates []Candidate `json:"candidates"`
}

// Candidate is one grid point of a group.
type Candidate struct {
	// Label is "key=value ..." over the tuned keys, "default" without any.
	Label string `json:"label"`
	// Config is the resolved configuration with seed 0.
	Config experiments.Resolved `json:"config"`
	// Final, if set, is the configuration of the final runs, when the
	// scale's final-steps differ from its steps; nil means Config.
	Final *experiments.Resolved `json:"final,omitempty"`
}

// FinalConfig returns the configuration (seed 0) of the final runs of
// candidate c of group g.
func (p *Plan) FinalConfig(g, c int) experiments.Resolved {
	cand := p.Groups[g].Candidates[c]
	if cand.Final != nil {
		return *cand.Final
	}
	return cand.Config
}

// Task is one run of a plan.
type Task struct {
	ID        string
	Config    experiments.Resolved
	Group     int
	Candidate int
	Seed      uint64
}

// Sweeps reports whether group g goes through the sweep stage: only groups
// with more than one candidate do.
func (p *Plan) Sweeps(g int) bool { return len(p.Groups[g].Candidates) > 1 }

// Task returns the sweep run of candidate c of group g with the given seed.
func (p *Plan) Task(g, c int, seed uint64) Task {
	cfg := p.Groups[g].Candidates[c].Config.WithSeed(seed)
	return Task{ID: ID(cfg), Config: cfg, Group: g, Candidate: c, Seed: seed}
}

// FinalTask returns the final run of candidate c of group g with the given
// seed: Task's, unless the scale's final runs are longer.
func (p *Plan) FinalTask(g, c int, seed uint64) Task {
	cfg := p.FinalConfig(g, c).WithSeed(seed)
	return Task{ID: ID(cfg), Config: cfg, Group: g, Candidate: c, Seed: seed}
}

// SweepTasks returns the sweep-stage runs of group g (none if it has a single
// candidate), candidate by candidate.
func (p *Plan) SweepTasks(g int) []Task {
	if !p.Sweeps(g) {
		return nil
	}
	var ts []Task
	for c := range p.Groups[g].Candidates {
		for _, s := range p.SweepSeeds {
			ts = append(ts, p.Task(g, c, s))
		}
	}
	return ts
}

// FinalTasks returns the final-stage runs of candidate c of group g.
func (p *Plan) FinalTasks(g, c int) []Task {
	ts := make([]Task, len(p.FinalSeeds))
	for i, s := range p.FinalSeeds {
		ts[i] = p.FinalTask(g, c, s)
	}
	return ts
}

// Plan expands the study at the named scale and validates every run
// configuration.
func (s Study) Plan(scale string) (Plan, error) {
	sc, ok := s.Scales[scale]
	if !ok {
		return Plan{}, invalid("study %s has no scale %q (have %s)", s.Name, scale, strings.Join(s.ScaleNames(), ", "))
	}
	p := Plan{Study: s.Name, Scale: scale, Description: s.Description,
		SweepSeeds: slices.Clone(sc.SweepSeeds), FinalSeeds: slices.Clone(sc.FinalSeeds)}
	if s.Selection == AcrossEnvs {
		p.Selection = AcrossEnvs
	}
	if p.SweepSeeds == nil {
		p.SweepSeeds = Seeds{}
	}
	envs := []EnvSpec{{}}
	if list := s.envList(sc); len(list) > 0 {
		envs = envs[:0]
		for _, entry := range list {
			e, err := ParseEnv(entry)
			if err != nil {
				return p, err
			}
			envs = append(envs, e)
		}
	}
	names, families, used := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, env := range envs {
		if err := s.planEnv(&p, env, sc, names, families, used); err != nil {
			return p, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sc.Set)) {
		if !used[k] {
			return p, invalid("scale %s: set %s applies to none of the groups' methods", scale, k)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(sc.Merge)) {
		for _, o := range sc.Merge[m] {
			if !families[o] {
				return p, invalid("scale %s: merge %s names group %s, which the study does not have", scale, m, o)
			}
		}
	}
	if err := p.checkFamilies(); err != nil {
		return p, err
	}
	for _, o := range sc.Only {
		if !families[o] {
			return p, invalid("scale %s: only names group %s, which the study does not have", scale, o)
		}
	}
	for _, o := range slices.Sorted(maps.Keys(sc.Select)) {
		if !families[o] {
			return p, invalid("scale %s: select names group %s, which the study does not have", scale, o)
		}
	}
	return p, nil
}

// planEnv appends the groups of the study run on env (the zero EnvSpec: on
// the environment of the settings) to p, those of sc.Only if it is set,
// merged as sc.Merge says, records every group's name in families and the
// keys of sc.Set that some group took in used.
func (s Study) planEnv(p *Plan, env EnvSpec, sc Scale, names, families, used map[string]bool) error {
	first := len(p.Groups)
	for _, gs := range s.Groups {
		entries := gs.Each
		if len(entries) == 0 {
			entries = []map[string]any{nil}
		}
		for _, e := range entries {
			name, over := gs.Name, map[string]any{}
			for k, v := range e {
				if k != "name" {
					over[k] = v
				}
			}
			if e != nil {
				suffix := fmt.Sprint(e["name"])
				if _, named := e["name"]; !named {
					suffix = pairs(over, ",")
				}
				name += "/" + suffix
			}
			family := name
			families[family] = true
			if len(sc.Only) > 0 && !slices.Contains(sc.Only, family) {
				continue
			}
			if env.Env != "" {
				maps.Copy(over, env.config())
				name += "@" + env.Label
			}
			if names[name] {
				return invalid("group %s appears twice", name)
			}
			names[name] = true
			g, err := s.group(name, gs, over, sc, sc.Select[family], used)
			if err != nil {
				return err
			}
			g.Family, g.Env = family, env.Label
			p.Groups = append(p.Groups, g)
		}
	}
	groups, err := merge(p.Groups[first:], sc.Merge, env.Label)
	if err != nil {
		return err
	}
	for i, g := range groups {
		if slices.ContainsFunc(groups[:i], func(o Group) bool { return o.Name == g.Name }) {
			return invalid("scale %s: merged group %s has the name of another group", p.Scale, g.Name)
		}
		if len(g.Candidates) > 1 && len(p.SweepSeeds) == 0 {
			return invalid("scale %s: group %s tunes %s but there are no sweep-seeds", p.Scale, g.Name, strings.Join(g.Tuned, ", "))
		}
		if env.Env == "" {
			groups[i].Family, groups[i].Env = "", ""
		}
	}
	p.Groups = append(p.Groups[:first], groups...)
	return nil
}

// merge replaces, in groups (those of one environment, labelled env; Family
// set), the groups of each list of merges by one group named by its key
// (with "@env" if env is not empty) at the place of the first one present:
// its candidates are theirs in list order, its Tuned the settings in which
// they differ, their labels those settings' values.
func merge(groups []Group, merges map[string][]string, env string) ([]Group, error) {
	out := slices.Clone(groups)
	for _, m := range slices.Sorted(maps.Keys(merges)) {
		list := merges[m]
		var members []Group
		at := -1
		kept := out[:0:0]
		for _, g := range out {
			if !slices.Contains(list, g.Family) {
				kept = append(kept, g)
				continue
			}
			if at < 0 {
				at = len(kept)
			}
			members = append(members, g)
		}
		if len(members) == 0 {
			continue
		}
		slices.SortStableFunc(members, func(a, b Group) int {
			return slices.Index(list, a.Family) - slices.Index(list, b.Family)
		})
		name := m
		if env != "" {
			name += "@" + env
		}
		mg := Group{Name: name, Family: m, Env: env}
		tuned := map[string]bool{}
		for _, g := range members {
			for _, k := range g.Tuned {
				tuned[k] = true
			}
			mg.Candidates = append(mg.Candidates, g.Candidates...)
		}
		values := map[string]map[string]bool{}
		for _, c := range mg.Candidates {
			cfg := c.Config.Config()
			for _, st := range experiments.Settings {
				if st.Key == "seed" {
					continue
				}
				if values[st.Key] == nil {
					values[st.Key] = map[string]bool{}
				}
				values[st.Key][st.Format(&cfg)] = true
			}
		}
		for k, vs := range values {
			if len(vs) > 1 {
				tuned[k] = true
			}
		}
		mg.Tuned = slices.Sorted(maps.Keys(tuned))
		seen := map[string]bool{}
		for i, c := range mg.Candidates {
			cfg := c.Config.Config()
			var label []string
			for _, k := range mg.Tuned {
				st, _ := experiments.Lookup(k)
				label = append(label, k+"="+st.Format(&cfg))
			}
			c.Label = strings.Join(label, " ")
			if seen[c.Label] {
				return nil, invalid("merge %s: two groups have the candidate %s", name, c.Label)
			}
			seen[c.Label] = true
			mg.Candidates[i] = c
		}
		out = slices.Insert(kept, at, mg)
	}
	return out, nil
}

// checkFamilies checks that, in a plan selecting across environments, the
// groups of one family have the same candidates on every environment.
func (p *Plan) checkFamilies() error {
	if p.Selection != AcrossEnvs {
		return nil
	}
	first := map[string]Group{}
	for _, g := range p.Groups {
		if g.Family == "" {
			continue
		}
		f, ok := first[g.Family]
		if !ok {
			first[g.Family] = g
			continue
		}
		if !slices.EqualFunc(f.Candidates, g.Candidates, func(a, b Candidate) bool { return a.Label == b.Label }) {
			return invalid("selection %s: groups %s and %s have different candidates", AcrossEnvs, f.Name, g.Name)
		}
	}
	return nil
}

// group expands one group: base < config < each entry < scale set < grid
// point, the grid's values replaced by the scale's grid, then by selected.
// The scale's set keys that apply to the group's method are recorded in
// used.
func (s Study) group(name string, gs GroupSpec, over map[string]any, sc Scale, selected map[string]any, used map[string]bool) (Group, error) {
	grid := map[string][]any{}
	for k, vs := range gs.Grid {
		grid[k] = vs
		if r, ok := sc.Grid[k]; ok {
			grid[k] = r
		}
		if v, ok := selected[k]; ok {
			grid[k] = selectValues(v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(selected)) {
		if _, ok := grid[k]; !ok {
			return Group{}, invalid("group %s: select fixes %s, which the group does not tune", name, k)
		}
	}
	g := Group{Name: name, Tuned: slices.Sorted(maps.Keys(grid))}
	fixed := map[string]any{}
	for _, m := range []map[string]any{s.Base, gs.Config, over} {
		maps.Copy(fixed, m)
	}
	method := experiments.DefaultMethod
	if m, ok := fixed["method"].(string); ok {
		method = arch.Method(m)
	}
	for k, v := range sc.Set {
		if st, ok := experiments.Lookup(k); ok && st.Applies(method) {
			fixed[k] = v
			used[k] = true
		}
	}
	seen := map[string]bool{}
	point := make([]int, len(g.Tuned))
	for {
		m := maps.Clone(fixed)
		hyper := map[string]any{}
		for i, k := range g.Tuned {
			hyper[k] = grid[k][point[i]]
			m[k] = hyper[k]
		}
		label := pairs(hyper, " ")
		if label == "" {
			label = "default"
		}
		cfg, err := toConfig(m, sc.Steps)
		if err != nil {
			return g, fmt.Errorf("group %s, candidate %s: %w", name, label, err)
		}
		if id := ID(cfg); seen[id] {
			return g, invalid("group %s: candidate %s repeats another candidate's configuration", name, label)
		} else {
			seen[id] = true
		}
		cand := Candidate{Label: label, Config: cfg}
		if sc.FinalSteps > 0 && sc.FinalSteps != sc.Steps {
			final, err := toConfig(m, sc.FinalSteps)
			if err != nil {
				return g, fmt.Errorf("group %s, candidate %s at final-steps: %w", name, label, err)
			}
			cand.Final = &final
		}
		g.Candidates = append(g.Candidates, cand)
		// Next grid point, last key fastest.
		i := len(point) - 1
		for ; i >= 0; i-- {
			point[i]++
			if point[i] < len(grid[g.Tuned[i]]) {
				break
			}
			point[i] = 0
		}
		if i < 0 {
			return g, nil
		}
	}
}

// scaledKeys are the settings whose values in experiment files are written
// for PaperSteps and scaled by steps/PaperSteps (the stage schedule's).
var scaledKeys = []string{"steps-per-stage", "stage-min", "stage-max", "stage-window"}

// toConfig converts a config map to a resolved configuration with the given
// steps, scaling the scaledKeys by steps/PaperSteps (steps-per-stage auto
// stays auto).
func toConfig(m map[string]any, steps int) (experiments.Resolved, error) {
	m = maps.Clone(m)
	for _, k := range scaledKeys {
		v, ok := m[k]
		if !ok || (k == "steps-per-stage" && v == "auto") {
			continue
		}
		f, ok := v.(float64)
		if i, isInt := v.(int); isInt {
			f, ok = float64(i), true
		}
		if !ok {
			return experiments.Resolved{}, invalid("%s %v is not a number", k, v)
		}
		m[k] = max(1, int(math.Round(f*float64(steps)/experiments.PaperSteps)))
	}
	m["steps"] = steps
	b, err := json.Marshal(m)
	if err != nil {
		return experiments.Resolved{}, invalid("%v", err)
	}
	var cfg experiments.RunConfig
	var r experiments.Resolved
	if err = json.Unmarshal(b, &cfg); err == nil {
		r, err = cfg.Resolve()
	}
	if ce := (*experiments.ConfigError)(nil); errors.As(err, &ce) {
		return r, invalid("%s", ce.Problem)
	}
	if err != nil {
		return r, invalid("%v", err)
	}
	return r, nil
}

// pairs formats m as sorted key=value pairs joined by sep.
func pairs(m map[string]any, sep string) string {
	var b []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := fmt.Sprint(m[k])
		if f, ok := m[k].(float64); ok {
			v = formatFloat(f)
		}
		b = append(b, k+"="+v)
	}
	return strings.Join(b, sep)
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// planFile is the plan's file name inside DIR/plans.
func (p *Plan) planFile() string { return p.Study + "-" + p.Scale + ".json" }

// validatePlan checks a plan read from disk.
func validatePlan(p Plan) error {
	if p.Study == "" || p.Scale == "" || len(p.Groups) == 0 {
		return errors.New("sweep: plan without study, scale or groups")
	}
	for _, g := range p.Groups {
		if len(g.Candidates) == 0 {
			return fmt.Errorf("sweep: plan group %s has no candidates", g.Name)
		}
	}
	return nil
}
