package main

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/arch"
	"github.com/ccn-go/ccn/experiments"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// field returns the value of the "key  value" line of ccn budget's output.
func field(t *testing.T, out, key string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, key+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in %q", key, out)
	return ""
}

func TestBudgetOneConfiguration(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ops  string
	}{
		// 16·(4·16 + 4·4·12 + 4·4)
		{[]string{"--method", "tbptt", "--hidden", "4", "--truncation", "15", "--inputs", "12"}, "4352"},
		// 2·(4 + 4·7 + 4), default inputs overridden
		{[]string{"--method", "tbptt", "--hidden", "1", "--truncation", "1", "--inputs", "7"}, "72"},
		// 7·10·(48 + 8), default 12 inputs
		{[]string{"--method", "columnar", "--features", "10"}, "3920"},
		// 5·62 + 6·62
		{[]string{"--method", "constructive", "--features", "5", "--inputs", "12"}, "682"},
		// 16·84 + 6·4·84
		{[]string{"--method", "ccn", "--features", "16", "--features-per-stage", "4"}, "3360"},
		// 8·68 + 6·8·68
		{[]string{"--method", "ccn", "--features", "8", "--features-per-stage", "8"}, "3808"},
		// 7·4·(2·12 + 2)
		{[]string{"--method", "rtu", "--hidden", "4"}, "728"},
		// 7·3·(2·5 + 2)
		{[]string{"--method", "rtu-linear", "--hidden", "3", "--inputs", "5"}, "252"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, run(append([]string{"budget"}, tc.args...), &stdout, &stderr), stderr.String())
			assert.Equal(t, tc.ops, field(t, stdout.String(), "paper ops/step"))
			assert.Equal(t, tc.args[1], field(t, stdout.String(), "method"))
		})
	}
}

func TestBudgetMatching(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"budget", "--ops", "4000", "--inputs", "12"}, &stdout, &stderr), stderr.String())
	out := stdout.String()
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 7 && f[0] != "method" {
			key := f[0]
			if f[0] == "tbptt" {
				key += ":" + f[2]
			}
			rows[key] = f
		}
	}
	// method → features, paper ops, hand-computed (see compute tests).
	for key, want := range map[string][2]string{
		"tbptt:2":      {"12", "3600"},
		"tbptt:15":     {"3", "3072"},
		"tbptt:30":     {"2", "3720"},
		"columnar":     {"10", "3920"},
		"constructive": {"29", "3850"},
		"ccn":          {"16", "3360"},
		"rtu":          {"21", "3822"}, // 7·21·(2·12 + 2)
		"rtu-linear":   {"21", "3822"},
	} {
		require.Contains(t, rows, key, out)
		assert.Equal(t, want[0], rows[key][1], key)
		assert.Equal(t, want[1], rows[key][4], key)
	}
	assert.Len(t, rows, 8+5, "eight paper truncations, three other methods of the paper and the two RTUs")
	// The paper's pairs follow, each with its cost under the paper's formula
	// (hand-computed: (k+1)(4H² + 4·12·H + 4H)).
	for pair, cost := range map[string]string{"2:13": "4056", "3:10": "3680", "5:8": "4032", "8:5": "3240",
		"10:5": "3960", "15:4": "4352", "20:3": "4032", "30:2": "3720"} {
		assert.Regexp(t, `(?m)^`+pair+` +`+cost+` `, out, pair)
	}

	stdout.Reset()
	require.Equal(t, 0, run([]string{"budget", "--ops", "4000", "--truncations", "15", "--nearest"}, &stdout, &stderr))
	assert.Contains(t, stdout.String(), "4352", "nearest picks 15:4")
}

// The dense methods outside the paper's compute model report the engines'
// own counts (H = 4, m = 12, P = 272 cell parameters) and no paper figure;
// like ccn run they have the output bias b_out (+1: y += b_out) unless
// --no-out-bias.
func TestBudgetDenseWithoutPaperModel(t *testing.T) {
	for _, tc := range []struct {
		method, ops string
	}{
		// forward 8·4·16 + 40, prediction 8, coefficients 15·4, traces P·(8·16 + 40 + 1), Grad P·8
		{"rtrl", "48764"},
		// forward 552, coefficients 21·4, prediction 8, traces and Grad 11·P
		{"snap1", "3636"},
		// forward 552, coefficients 60, prediction 8, (∂F/∂s)·s̃ 128 + 56, νᵀ·∂F/∂θ 24 + 256 + 4P,
		// scalings 8, updates 24 + 3P, Grad 8 + P
		{"uoro", "3300"},
	} {
		var stdout, stderr bytes.Buffer
		args := []string{"budget", "--method", tc.method, "--hidden", "4", "--inputs", "12"}
		require.Equal(t, 0, run(append(args, "--no-out-bias"), &stdout, &stderr), stderr.String())
		assert.Equal(t, tc.ops, field(t, stdout.String(), "implementation ops/step"), tc.method)
		assert.True(t, strings.HasPrefix(field(t, stdout.String(), "paper ops/step"), "- "), tc.method)

		stdout.Reset()
		require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
		n, err := strconv.Atoi(tc.ops)
		require.NoError(t, err)
		assert.Equal(t, strconv.Itoa(n+1), field(t, stdout.String(), "implementation ops/step"), "%s with b_out", tc.method)
	}
	// T-BPTT 15:4: F = 8·4·12 + 8·16 + 11·4 = 556, S = 556 + 56 = 612, E = 8·16 + 4 = 132,
	// F + 15·S + 14·E = 11,584, and 1 for b_out; the paper's figure has no output layer.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"budget", "--method", "tbptt", "--hidden", "4", "--truncation", "15"}, &stdout, &stderr))
	assert.Equal(t, "11585", field(t, stdout.String(), "implementation ops/step"))
	assert.Equal(t, "4352", field(t, stdout.String(), "paper ops/step"))
}

// With --frozen-step-scale > 0 the implementation count adds, per frozen
// column of m_s inputs, its traces and gradient: 44·m_s + 108 operations in
// place of its forward pass alone, 8·m_s + 18 (docs/equations.md). CCN 16
// with 4 per stage on 12 inputs has three frozen stages of 4 columns reading
// 12, 16 and 20 inputs: 4·(36·12 + 90) + 4·(36·16 + 90) + 4·(36·20 + 90) =
// 7,992 more than its 6,632. The paper's count stays that of constant frozen
// stages; at 0 the count is the plain one.
func TestBudgetFrozenTraces(t *testing.T) {
	count := func(scale string) (impl, paper string) {
		var stdout, stderr bytes.Buffer
		args := []string{"budget", "--method", "ccn", "--features", "16", "--features-per-stage", "4", "--frozen-step-scale", scale}
		require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
		return field(t, stdout.String(), "implementation ops/step"), field(t, stdout.String(), "paper ops/step")
	}
	impl, paper := count("0.1")
	assert.Equal(t, "14624", impl)
	assert.Equal(t, "3360 (frozen columns without traces, as the paper's)", paper)
	impl, paper = count("0")
	assert.Equal(t, "6632", impl)
	assert.Equal(t, "3360", paper)
}

func TestBudgetBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"nothing", nil},
		{"unknown method", []string{"--method", "lstm", "--hidden", "3"}},
		{"both modes", []string{"--method", "tbptt", "--hidden", "4", "--truncation", "2", "--ops", "4000"}},
		{"tbptt missing truncation", []string{"--method", "tbptt", "--hidden", "4"}},
		{"tbptt with features", []string{"--method", "tbptt", "--features", "4", "--truncation", "2"}},
		{"columnar with hidden", []string{"--method", "columnar", "--hidden", "4"}},
		{"snap1 with features", []string{"--method", "snap1", "--features", "4"}},
		{"uoro without hidden", []string{"--method", "uoro"}},
		{"rtrl with truncation", []string{"--method", "rtrl", "--hidden", "2", "--truncation", "3"}},
		{"columnar with per stage", []string{"--method", "columnar", "--features", "4", "--features-per-stage", "2"}},
		{"zero features", []string{"--method", "ccn", "--features", "0"}},
		{"zero inputs", []string{"--method", "columnar", "--features", "3", "--inputs", "0"}},
		{"zero ops", []string{"--ops", "0"}},
		{"out bias of a network", []string{"--method", "ccn", "--features", "8", "--no-out-bias"}},
		{"out bias with ops", []string{"--ops", "4000", "--no-out-bias"}},
		{"bad truncations", []string{"--ops", "4000", "--truncations", "2,x"}},
		{"zero truncation", []string{"--ops", "4000", "--truncations", "0"}},
		{"hidden with ops", []string{"--ops", "4000", "--hidden", "3"}},
		{"zero per stage", []string{"--ops", "4000", "--features-per-stage", "0"}},
		{"frozen step scale of columnar", []string{"--method", "columnar", "--features", "6", "--frozen-step-scale", "0.1"}},
		{"frozen step scale above 1", []string{"--method", "ccn", "--features", "8", "--frozen-step-scale", "2"}},
		{"frozen step scale with ops", []string{"--ops", "4000", "--frozen-step-scale", "0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, run(append([]string{"budget"}, tc.args...), &stdout, &stderr))
			assert.Empty(t, stdout.String())
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
		})
	}
}

// The sizes ccn budget takes for a method (its registry entry's Sizes) are
// run settings that apply to it in ccn run (experiments.Settings' For), and
// the other way round for hidden units, truncation and features, so that
// the two places cannot drift apart. Features per stage applies to every
// network in runs, fixed for Columnar (all) and Constructive (1), which
// therefore do not take it.
func TestBudgetSizesAreRunSettings(t *testing.T) {
	for _, m := range arch.Methods() {
		info, _ := arch.Info(m)
		for _, key := range []string{"hidden", "truncation", "features", "features-per-stage"} {
			s, ok := experiments.Lookup(key)
			require.True(t, ok, key)
			takes := slices.ContainsFunc(info.Sizes, func(z arch.Size) bool { return z.Flag() == key })
			if key == "features-per-stage" {
				assert.True(t, !takes || s.Applies(m), "%s takes --%s, which does not apply to its runs", m, key)
				assert.Equal(t, takes, s.Applies(m) && info.PerStage != nil && info.PerStage(arch.Spec{Features: 6, FeaturesPerStage: 2}) == 2,
					"%s: --%s given exactly when the run's value is free", m, key)
				continue
			}
			assert.Equal(t, s.Applies(m), takes, "%s: --%s in ccn budget and in ccn run", m, key)
		}
	}
}
