package sweep

import (
	"path/filepath"
	"strings"
)

// EnvSpec is one entry of a study's environment list, written as an
// environment name (breakout, trace-patterning: ccn envs lists them) or as
// atari:FILE, the authors' recorded stream FILE (env atari, stream FILE).
// Its label names the groups run on it: the name itself, or FILE's base name
// without its extension (atari:data/Pong.pb is Pong).
type EnvSpec struct {
	Label  string
	Env    string
	Stream string // FILE of atari:FILE, else empty
}

// ParseEnv reads one entry of an environment list.
func ParseEnv(entry string) (EnvSpec, error) {
	if entry == "" || strings.ContainsAny(entry, ",@\n\"") {
		return EnvSpec{}, invalid("environment %q must be non-empty without commas, '@' or quotes", entry)
	}
	if file, ok := strings.CutPrefix(entry, "atari:"); ok {
		label := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if file == "" || label == "" || label == "." {
			return EnvSpec{}, invalid("environment %q: atari:FILE needs a file", entry)
		}
		return EnvSpec{Label: label, Env: "atari", Stream: file}, nil
	}
	return EnvSpec{Label: entry, Env: entry}, nil
}

// config returns the settings the entry adds to every run on it.
func (e EnvSpec) config() map[string]any {
	m := map[string]any{"env": e.Env}
	if e.Stream != "" {
		m["stream"] = e.Stream
	}
	return m
}

// checkEnvs checks the environment list: valid entries, distinct labels,
// and no env or stream in the base or a group (the list sets them).
func (s Study) checkEnvs() error {
	lists := [][]string{s.Envs}
	for _, sc := range s.Scales {
		if len(sc.Envs) > 0 && len(s.Envs) == 0 {
			return invalid("a scale sets envs but the study has none")
		}
		lists = append(lists, sc.Envs)
	}
	if len(s.Envs) == 0 {
		return nil
	}
	for _, list := range lists {
		labels := map[string]bool{}
		for _, entry := range list {
			e, err := ParseEnv(entry)
			if err != nil {
				return err
			}
			if labels[e.Label] {
				return invalid("environment label %s appears twice in envs", e.Label)
			}
			labels[e.Label] = true
		}
	}
	maps := []map[string]any{s.Base}
	for _, g := range s.Groups {
		maps = append(maps, g.Config)
		maps = append(maps, g.Each...)
	}
	for _, sc := range s.Scales {
		maps = append(maps, sc.Set)
	}
	for _, m := range maps {
		for _, k := range []string{"env", "stream"} {
			if _, ok := m[k]; ok {
				return invalid("%s is set by envs, not in the study's settings", k)
			}
		}
	}
	return nil
}

// WithEnvs returns the study with its environment list replaced by envs at
// every scale (ccn sweep --envs), checked like a file's.
func (s Study) WithEnvs(envs []string) (Study, error) {
	s.Envs = envs
	scales := map[string]Scale{}
	for name, sc := range s.Scales {
		sc.Envs = nil
		scales[name] = sc
	}
	s.Scales = scales
	return s, s.checkEnvs()
}

// envList returns the environment list at scale sc.
func (s Study) envList(sc Scale) []string {
	if len(sc.Envs) > 0 {
		return sc.Envs
	}
	return s.Envs
}
