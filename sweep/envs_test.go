package sweep

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseEnv(t *testing.T) {
	tests := []struct {
		entry string
		want  EnvSpec
		bad   bool
	}{
		{entry: "breakout", want: EnvSpec{Label: "breakout", Env: "breakout"}},
		{entry: "atari:data/Pong.pb", want: EnvSpec{Label: "Pong", Env: "atari", Stream: "data/Pong.pb"}},
		{entry: "atari:/x/y/seaquest", want: EnvSpec{Label: "seaquest", Env: "atari", Stream: "/x/y/seaquest"}},
		{entry: "atari:", bad: true},
		{entry: "", bad: true},
		{entry: "a,b", bad: true},
		{entry: "a@b", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseEnv(tt.entry)
		if tt.bad {
			assert.ErrorIs(t, err, ErrInvalid, tt.entry)
			continue
		}
		require.NoError(t, err, tt.entry)
		assert.Equal(t, tt.want, got, tt.entry)
		assert.Equal(t, got.Env, got.config()["env"], tt.entry)
		_, hasStream := got.config()["stream"]
		assert.Equal(t, got.Stream != "", hasStream, tt.entry)
	}
}

const envStudy = `
name: envs
envs: [trace-patterning]
groups:
  - name: ccn
    config: {method: ccn}
    grid: {step-size: [0.001, 0.0001]}
  - name: tbptt
    config: {method: tbptt}
    each: [{name: "5:7", truncation: 5, hidden: 7}]
scales:
  s: {steps: 100, sweep-seeds: 0-1, final-seeds: 5}
`

// A study over a list of environments has one group per method and
// environment, named FAMILY@LABEL, each run on its environment.
func TestPlanOverEnvs(t *testing.T) {
	s, err := Parse([]byte(envStudy))
	require.NoError(t, err)
	p, err := s.Plan("s")
	require.NoError(t, err)
	var names []string
	for _, g := range p.Groups {
		names = append(names, g.Name)
		assert.Equal(t, "trace-patterning", g.Env)
		for _, c := range g.Candidates {
			assert.Equal(t, "trace-patterning", c.Config.Config().Env)
		}
	}
	assert.Equal(t, []string{"ccn@trace-patterning", "tbptt/5:7@trace-patterning"}, names)
	assert.Equal(t, "tbptt/5:7", p.Groups[1].Family)
	assert.Len(t, p.Groups[0].Candidates, 2)

	// Without envs the groups keep their names and carry no environment.
	s.Envs = nil
	p, err = s.Plan("s")
	require.NoError(t, err)
	assert.Equal(t, "ccn", p.Groups[0].Name)
	assert.Empty(t, p.Groups[0].Env+p.Groups[0].Family)

	// The list replaced (ccn sweep --envs): a label twice, or an unknown
	// environment, is the user's error.
	_, err = s.WithEnvs([]string{"trace-patterning", "trace-patterning"})
	assert.ErrorIs(t, err, ErrInvalid)
	bad, err := s.WithEnvs([]string{"no-such-game"})
	require.NoError(t, err, "names are checked by the run settings, at Plan")
	_, err = bad.Plan("s")
	var se *StudyError
	assert.True(t, errors.As(err, &se), "%v", err)
}

// The list sets env and stream: a study that also sets them is refused.
func TestEnvsExcludeEnvSetting(t *testing.T) {
	for _, where := range []string{
		"base: {env: trace-patterning}\n",
		"scales:\n  s: {steps: 100, final-seeds: 5, set: {env: trace-patterning}}\n",
	} {
		text := "name: x\nenvs: [trace-patterning]\ngroups: [{name: g, config: {method: ccn}}]\n" + where
		if where[0] == 'b' {
			text += "scales: {s: {steps: 100, final-seeds: 5}}\n"
		}
		_, err := Parse([]byte(text))
		assert.ErrorContains(t, err, "env is set by envs", where)
	}
}

// A scale may run fewer environments (envs) and fewer groups (only).
func TestScaleEnvsAndOnly(t *testing.T) {
	s, err := Parse([]byte(envStudy + "  t: {steps: 100, final-seeds: 5, envs: [trace-patterning], only: [tbptt/5:7]}\n"))
	require.NoError(t, err)
	p, err := s.Plan("t")
	require.NoError(t, err)
	require.Len(t, p.Groups, 1)
	assert.Equal(t, "tbptt/5:7@trace-patterning", p.Groups[0].Name)
	p, err = s.Plan("s")
	require.NoError(t, err)
	assert.Len(t, p.Groups, 2, "only applies to its scale")

	// --envs replaces the list at every scale.
	w, err := s.WithEnvs([]string{"trace-patterning"})
	require.NoError(t, err)
	assert.Empty(t, w.Scales["t"].Envs)

	for text, want := range map[string]string{
		"  t: {steps: 100, final-seeds: 5, only: [tbptt]}\n":                              "only names group tbptt",
		"  t: {steps: 100, final-seeds: 5, envs: [trace-patterning, trace-patterning]}\n": "appears twice",
	} {
		s, err := Parse([]byte(envStudy + text))
		if err == nil {
			_, err = s.Plan("t")
		}
		assert.ErrorContains(t, err, want)
	}
	_, err = Parse([]byte("name: x\ngroups: [{name: g}]\nscales: {s: {steps: 1, final-seeds: 0, envs: [trace-patterning]}}\n"))
	assert.ErrorContains(t, err, "a scale sets envs but the study has none")
}
