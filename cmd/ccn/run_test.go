package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quick is a short run: small window and curve spacing, no gate.
func quick(out string, extra ...string) []string {
	return append([]string{"run", "--steps", "3000", "--window", "500", "--log-every", "1000", "--no-gate", "--out", out}, extra...)
}

func TestRunBadInput(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	write := func(name, content string) string {
		p := filepath.Join(base, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	unknownJSON := write("unknown.json", `{"method": "ccn", "stepsize": 0.1}`)
	wrongJSON := write("wrong.json", `{"steps": "many"}`)
	unknownYAML := write("unknown.yaml", "method: ccn\nlearning-rate: 0.1\n")
	wrongYAML := write("wrong.yaml", "steps: [1, 2]\n")
	zeroYAML := write("zero.yaml", "method: tbptt\ntruncation: 0\n")

	tests := []struct {
		name string
		args []string
		want string // substring of the one-line message
	}{
		{"unknown method", []string{"--method", "gru"}, `method gru unknown`},
		{"unknown env", []string{"--env", "pong"}, `env pong unknown`},
		{"unknown optimizer", []string{"--optimizer", "sgd"}, `optimizer sgd unknown`},
		{"zero steps", []string{"--steps", "0"}, "--steps must be positive"},
		{"negative steps", []string{"--steps", "-5"}, "steps -5 must be at least 1"},
		{"zero step size", []string{"--step-size", "0"}, "--step-size must be positive"},
		{"negative step size", []string{"--step-size", "-0.1"}, "step-size -0.1"},
		{"NaN step size", []string{"--step-size", "NaN"}, "step-size NaN"},
		{"features per stage above features", []string{"--features", "4", "--features-per-stage", "5"}, "features-per-stage 5 is larger than features 4"},
		{"zero truncation", []string{"--method", "tbptt", "--truncation", "0"}, "--truncation must be positive"},
		{"negative truncation", []string{"--method", "tbptt", "--truncation", "-1"}, "truncation -1 must be at least 1"},
		{"truncation for ccn", []string{"--truncation", "5"}, "truncation does not apply to method ccn"},
		{"lambda above 1", []string{"--lambda", "1.5"}, "lambda 1.5"},
		{"unknown flag", []string{"--learning-rate", "1"}, "flag provided but not defined: --learning-rate (see ccn run -h)"},
		{"malformed integer", []string{"--steps", "many"}, `invalid value "many" for flag --steps: "many" is not an integer (see ccn run -h)`},
		{"fractional integer", []string{"--steps", "2.5"}, `"2.5" is not an integer`},
		{"malformed float", []string{"--gamma", "high"}, `invalid value "high" for flag --gamma`},
		{"config unknown key json", []string{"--config", unknownJSON}, `unknown setting "stepsize"`},
		{"config wrong type json", []string{"--config", wrongJSON}, `steps "many" is not an integer`},
		{"config unknown key yaml", []string{"--config", unknownYAML}, `unknown setting "learning-rate"`},
		{"config wrong type yaml", []string{"--config", wrongYAML}, "steps at line 1 is not a single value"},
		{"config zero truncation", []string{"--config", zeroYAML}, "truncation must be positive"},
		{"config missing", []string{"--config", filepath.Join(base, "none.json")}, "no such file"},
		{"isi min above max", []string{"--isi-min", "12", "--isi-max", "8", "--iti-min", "30"}, "isi-min 12 is above isi-max 8"},
		{"negative isi", []string{"--isi-min", "-4"}, "isi-min -4 must not be negative"},
		{"iti too short to separate trials", []string{"--isi-min", "48", "--isi-max", "72", "--iti-min", "60", "--iti-max", "100"}, "isi-max 72 is above iti-min 60: trials would not be separated"},
		{"iti min above max", []string{"--iti-min", "150"}, "iti-min 150 is above iti-max 120"},
		{"negative distractors", []string{"--distractors", "-1"}, "distractors -1 must not be negative"},
		{"isi on a pixel game", []string{"--env", "breakout", "--isi-min", "8"}, "isi-min 8 does not apply to env breakout"},
		{"cpuprofile in a missing directory", []string{"--cpuprofile", filepath.Join(base, "none", "cpu.prof")}, "--cpuprofile: open " + filepath.Join(base, "none", "cpu.prof")},
		{"config iti too short", []string{"--config", write("iti.yaml", "isi-min: 8\nisi-max: 12\niti-min: 10\niti-max: 20\n")}, "isi-max 12 is above iti-min 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(base, strings.ReplaceAll(tt.name, " ", "_"))
			code, _, stderr := runCLI(quick(out, tt.args...)...)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, tt.want)
			assert.NoDirExists(t, out)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}

	dirTests := []struct {
		name, out, want string
	}{
		{"missing parent", filepath.Join(base, "no", "such", "dir"), "is not an existing directory"},
		{"parent is a file", filepath.Join(file, "run"), "not a directory"},
		{"out is a file", file, "exists and is not a directory"},
		{"no out", "", "--out DIR is required"},
	}
	if runtime.GOOS == "linux" { // /proc refuses new files even to root
		dirTests = append(dirTests, struct{ name, out, want string }{"unwritable parent", "/proc/ccn-run-test", "is not writable"})
	}
	for _, tt := range dirTests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(quick(tt.out)...)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, tt.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
		})
	}
	assert.NoDirExists(t, filepath.Join(base, "no"))
}

func TestRunUnwritableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can write into read-only directories")
	}
	ro := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	out := filepath.Join(ro, "run")
	code, _, stderr := runCLI(quick(out)...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "is not writable")
	assert.NoDirExists(t, out)
}

func TestRunWritesFilesDeterministically(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, out := range []string{a, b} {
		code, stdout, stderr := runCLI(quick(out, "--method", "columnar", "--features", "3", "--seed", "7")...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "final error")
	}
	ca, err := os.ReadFile(filepath.Join(a, "curve.csv"))
	require.NoError(t, err)
	cb, err := os.ReadFile(filepath.Join(b, "curve.csv"))
	require.NoError(t, err)
	assert.Equal(t, ca, cb, "same config and seed give byte-identical curves")
	lines := strings.Split(strings.TrimSpace(string(ca)), "\n")
	assert.Equal(t, []string{"step", "error"}, strings.Split(lines[0], ","))
	assert.Len(t, lines, 4) // header + steps 1000, 2000, 3000

	p, err := os.ReadFile(filepath.Join(a, "predictions.csv"))
	require.NoError(t, err)
	plines := strings.Split(strings.TrimSpace(string(p)), "\n")
	assert.Equal(t, "t,prediction,return", plines[0])
	assert.Len(t, plines, 2001)
	assert.True(t, strings.HasPrefix(plines[1], "1000,"), plines[1])
	assert.True(t, strings.HasPrefix(plines[2000], "2999,"), plines[2000])

	var s map[string]any
	js, err := os.ReadFile(filepath.Join(a, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &s))
	for _, k := range []string{"config", "seed", "final_error", "lifetime_error", "steps", "wall_seconds",
		"steps_per_second", "diverged", "version", "revision", "go_version", "kernels", "numerics"} {
		assert.Contains(t, s, k)
	}
	assert.Equal(t, 3000.0, s["steps"])
	assert.Equal(t, false, s["diverged"])
	if runtime.GOOS == "linux" { // the thread's CPU time, at most the loop's wall time
		assert.Greater(t, s["cpu_seconds"], 0.0)
		assert.LessOrEqual(t, s["cpu_seconds"], s["wall_seconds"].(float64)+0.01)
	}
	cfg := s["config"].(map[string]any)
	assert.Equal(t, "columnar", cfg["method"])
	assert.Equal(t, 0.99, cfg["lambda"], "the resolved config is recorded")

	// A different seed gives a different curve.
	c := filepath.Join(base, "c")
	code, _, stderr := runCLI(quick(c, "--method", "columnar", "--features", "3", "--seed", "8")...)
	require.Equal(t, 0, code, stderr)
	cc, err := os.ReadFile(filepath.Join(c, "curve.csv"))
	require.NoError(t, err)
	assert.NotEqual(t, ca, cc)
}

func TestRunSkipsCompleteDirUnlessForced(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(quick(out, "--method", "constructive")...)
	require.Equal(t, 0, code, stderr)
	summary := filepath.Join(out, "summary.json")
	// Mark the summary so that a rerun would be visible.
	b, err := os.ReadFile(summary)
	require.NoError(t, err)
	marked := strings.Replace(string(b), `"diverged": false`, `"diverged": false, "marker": 1`, 1)
	require.NoError(t, os.WriteFile(summary, []byte(marked), 0o644))

	code, stdout, stderr := runCLI(quick(out, "--method", "constructive")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "skipped")
	b, err = os.ReadFile(summary)
	require.NoError(t, err)
	assert.Contains(t, string(b), "marker")

	code, stdout, stderr = runCLI(quick(out, "--method", "constructive", "--force")...)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "skipped")
	b, err = os.ReadFile(summary)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "marker")
}

func TestRunDivergenceExitsThree(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(quick(out, "--method", "tbptt", "--step-size", "1e300")...)
	require.Equal(t, exitDiverged, code, stderr)
	var s struct {
		Diverged bool `json:"diverged"`
		Steps    int  `json:"steps"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &s))
	assert.True(t, s.Diverged)
	assert.Less(t, s.Steps, 3000)
	curve, err := os.ReadFile(filepath.Join(out, "curve.csv"))
	require.NoError(t, err)
	assert.NotContains(t, strings.ToLower(string(curve)), "nan")
	assert.NotContains(t, strings.ToLower(string(curve)), "inf")
}

func TestRunConfigFileAndFlags(t *testing.T) {
	base := t.TempDir()
	cfg := filepath.Join(base, "run.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("method: tbptt\nhidden: 2\ntruncation: 3\nsteps: 2000\nwindow: 500\nlog-every: 1000\n"), 0o644))
	out := filepath.Join(base, "run")
	// --steps on the command line overrides the file.
	code, _, stderr := runCLI("run", "--config", cfg, "--steps", "1500", "--no-gate", "--out", out)
	require.Equal(t, 0, code, stderr)
	var s struct {
		Config map[string]any `json:"config"`
		Steps  int            `json:"steps"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &s))
	assert.Equal(t, 1500, s.Steps)
	assert.Equal(t, "tbptt", s.Config["method"])
	assert.Equal(t, 2.0, s.Config["hidden"])
	assert.Equal(t, 3.0, s.Config["truncation"])
}

func TestRunGatePasses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"run", "--method", "columnar", "--features", "2", "--steps", "100", "--window", "50", "--log-every", "50", "--out", out}
	code, _, stderr := runCLI(args...)
	require.Equal(t, 0, code, stderr)
	assert.FileExists(t, filepath.Join(out, "summary.json"))
}

// SnAp-1 and UORO learn through ccn run behind their gates, deterministically
// per seed (UORO's signs included); another seed changes UORO's curve.
func TestRunSnAp1AndUORO(t *testing.T) {
	base := t.TempDir()
	curve := func(name string, args ...string) []byte {
		out := filepath.Join(base, name)
		code, stdout, stderr := runCLI(quick(out, args...)...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "final error")
		c, err := os.ReadFile(filepath.Join(out, "curve.csv"))
		require.NoError(t, err)
		return c
	}
	for _, m := range []string{"snap1", "uoro"} {
		a := curve(m+"-a", "--method", m, "--hidden", "2", "--seed", "3")
		b := curve(m+"-b", "--method", m, "--hidden", "2", "--seed", "3")
		assert.Equal(t, a, b, "%s: same seed, same curve", m)
		if m == "uoro" {
			c := curve(m+"-c", "--method", m, "--hidden", "2", "--seed", "4")
			assert.NotEqual(t, a, c)
		}
	}
}

// Both RTU variants learn through ccn run (once each behind the gate), with the
// optimizers and TD(λ) of every method, deterministically per seed, and
// learn something: the prediction is not constant zero.
func TestRunRTU(t *testing.T) {
	base := t.TempDir()
	for _, m := range []string{"rtu", "rtu-linear"} {
		for _, opt := range []string{"rmsprop", "adam"} {
			run := func(name string) ([]byte, []byte) {
				out := filepath.Join(base, m+"-"+opt+"-"+name)
				args := quick(out, "--method", m, "--hidden", "3", "--seed", "2", "--optimizer", opt)
				if name == "a" && opt == "rmsprop" { // once per variant through the gate
					args = slices.DeleteFunc(args, func(a string) bool { return a == "--no-gate" })
				}
				code, stdout, stderr := runCLI(args...)
				require.Equal(t, 0, code, stderr)
				assert.Contains(t, stdout, "final error")
				c, err := os.ReadFile(filepath.Join(out, "curve.csv"))
				require.NoError(t, err)
				p, err := os.ReadFile(filepath.Join(out, "predictions.csv"))
				require.NoError(t, err)
				return c, p
			}
			a, pa := run("a")
			b, _ := run("b")
			assert.Equal(t, a, b, "%s %s: same seed, same curve", m, opt)
			nonzero := false
			for _, line := range strings.Split(string(pa), "\n")[1:] {
				if f := strings.Split(line, ","); len(f) == 3 && f[1] != "0" {
					nonzero = true
				}
			}
			assert.True(t, nonzero, "%s %s: predictions move", m, opt)
		}
	}
}

// The linear control runs through the gate on the pixel games' 275 inputs,
// is deterministic per seed, and refuses the settings of the other methods.
func TestRunLinear(t *testing.T) {
	base := t.TempDir()
	run := func(name string, args ...string) []byte {
		out := filepath.Join(base, name)
		code, stdout, stderr := runCLI(append([]string{"run", "--method", "linear", "--env", "seaquest", "--steps", "3000",
			"--window", "500", "--log-every", "1000", "--out", out}, args...)...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "final error")
		c, err := os.ReadFile(filepath.Join(out, "curve.csv"))
		require.NoError(t, err)
		return c
	}
	a := run("a", "--seed", "3")
	assert.Equal(t, a, run("b", "--seed", "3", "--no-gate"), "same seed, same curve")
	assert.NotEqual(t, a, run("c", "--seed", "4", "--no-gate"))
	for _, flag := range [][]string{{"--hidden", "2"}, {"--features", "3"}, {"--truncation", "2"}} {
		code, _, stderr := runCLI(quick(filepath.Join(base, "bad"), append([]string{"--method", "linear"}, flag...)...)...)
		assert.Equal(t, 2, code, stderr)
		assert.Contains(t, stderr, "does not apply to method linear")
	}
}

// A directory holding a complete run of another configuration is not
// "skipped": exit 2 naming the first differing setting, nothing changed.
func TestRunRefusesADirectoryOfAnotherConfiguration(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI(quick(out, "--method", "ccn")...)
	require.Equal(t, 0, code, stderr)
	before, err := os.ReadFile(filepath.Join(out, "summary.json"))
	require.NoError(t, err)

	code, stdout, stderr := runCLI(quick(out, "--method", "columnar")...)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "ccn run: "+out+" holds a complete run with method ccn, not columnar; use --force to replace it, or another --out\n", stderr)

	code, _, stderr = runCLI(quick(out, "--method", "ccn", "--seed", "5")...)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "with seed 0, not 5")
	after, err := os.ReadFile(filepath.Join(out, "summary.json"))
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// The same configuration, written differently (1e3 for 1000), is skipped.
	code, stdout, stderr = runCLI(quick(out, "--method", "ccn", "--log-every", "1e3")...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "skipped")
}

// ccn run --inject: the gate refuses the run (exit 1, one line naming the
// failing check) and leaves no directory; an unknown mistake, one that does
// not change the method's engine, or --no-gate with --inject are bad input.
func TestRunInjectIsRefused(t *testing.T) {
	base := t.TempDir()
	refused := []struct {
		name  string
		args  []string
		check string
	}{
		{"tbptt off-by-one", []string{"--method", "tbptt", "--hidden", "2", "--truncation", "5", "--inject", "off-by-one-window"}, "T-BPTT H=2 m=12 k=5"},
		{"ccn stage change", []string{"--method", "ccn", "--features", "4", "--features-per-stage", "2", "--inject", "restart-stats-at-stage"}, "stage change 0->1"},
		{"columnar recurrent", []string{"--method", "columnar", "--features", "2", "--inject", "drop-recurrent-term"}, "columnar 2"},
		{"snap1 recurrent", []string{"--method", "snap1", "--hidden", "2", "--inject", "drop-recurrent-term"}, "SnAp-1 H=2 m=12"},
		{"linear stale inputs", []string{"--method", "linear", "--inject", "previous-step-features"}, "linear m=12"},
		{"linear stale pixels", []string{"--method", "linear", "--env", "breakout", "--inject", "previous-step-features"}, "linear m=275"},
		{"rtu phase", []string{"--method", "rtu", "--hidden", "2", "--inject", "drop-phase-coupling"}, "RTU n=2 m=12"},
		{"rtu-linear recurrent", []string{"--method", "rtu-linear", "--hidden", "2", "--inject", "drop-recurrent-term"}, "linear RTU n=2 m=12"},
		{"rtu norm scale", []string{"--method", "rtu", "--hidden", "2", "--inject", "drop-norm-scale"}, "RTU n=2 m=12 (the run's normalization"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(base, strings.ReplaceAll(tt.name, " ", "_"))
			args := append([]string{"run", "--steps", "1000", "--out", out}, tt.args...)
			code, stdout, stderr := runCLI(args...)
			assert.Equal(t, 1, code, stderr)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "gradient gate")
			assert.Contains(t, stderr, tt.check)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.NoDirExists(t, out)
		})
	}
	bad := []struct {
		name string
		args []string
		want string
	}{
		{"unknown", []string{"--inject", "nonsense"}, "unknown injection"},
		{"no gate", []string{"--inject", "drop-recurrent-term", "--no-gate"}, "--inject needs the gate"},
		{"not this method", []string{"--method", "columnar", "--inject", "off-by-one-window"}, "does not change the engine of method columnar"},
		{"not uoro", []string{"--method", "uoro", "--inject", "drop-recurrent-term"}, "does not change the engine of method uoro"},
		{"not linear", []string{"--method", "linear", "--inject", "drop-recurrent-term"}, "does not change the engine of method linear"},
		{"not rtu", []string{"--method", "rtu", "--inject", "drop-forget-path"}, "does not change the engine of method rtu"},
		{"phase not ccn", []string{"--method", "ccn", "--inject", "drop-phase-coupling"}, "does not change the engine of method ccn"},
		{"norm scale not ccn", []string{"--method", "ccn", "--inject", "drop-norm-scale"}, "does not change the engine of method ccn"},
		{"norm scale without norm", []string{"--method", "rtu", "--no-norm", "--inject", "drop-norm-scale"}, "changes only a normalized RTU"},
		{"uoro statistical", []string{"--method", "uoro", "--inject", "asymmetric-uoro-scaling"}, "only ccn verify's statistical rows check"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(base, strings.ReplaceAll(tt.name, " ", "_"))
			code, _, stderr := runCLI(append([]string{"run", "--steps", "1000", "--out", out}, tt.args...)...)
			assert.Equal(t, 2, code, stderr)
			assert.Contains(t, stderr, tt.want)
			assert.NoDirExists(t, out)
		})
	}
}
