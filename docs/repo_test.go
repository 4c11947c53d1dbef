package docs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestLicenseAndCitation: the repository carries the Apache-2.0 text and a
// CITATION.cff (format 1.2.0) that cites the paper and names the license.
// (Validated against the CFF 1.2.0 JSON schema when written; this test keeps
// the facts that matter from drifting.)
func TestLicenseAndCitation(t *testing.T) {
	lic, err := os.ReadFile("../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Apache License", "Version 2.0, January 2004", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION", "END OF TERMS AND CONDITIONS"} {
		if !bytes.Contains(lic, []byte(want)) {
			t.Errorf("LICENSE lacks %q", want)
		}
	}
	b, err := os.ReadFile("../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	var cff struct {
		Version   string           `yaml:"cff-version"`
		Message   string           `yaml:"message"`
		Title     string           `yaml:"title"`
		Authors   []map[string]any `yaml:"authors"`
		License   string           `yaml:"license"`
		Preferred struct {
			Type    string           `yaml:"type"`
			Title   string           `yaml:"title"`
			Authors []map[string]any `yaml:"authors"`
			Journal string           `yaml:"journal"`
			Volume  int              `yaml:"volume"`
			Year    int              `yaml:"year"`
		} `yaml:"preferred-citation"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&cff); err != nil {
		t.Fatal(err)
	}
	switch {
	case cff.Version != "1.2.0":
		t.Errorf("cff-version %q, want 1.2.0", cff.Version)
	case cff.Message == "" || cff.Title == "" || len(cff.Authors) == 0:
		t.Error("CITATION.cff needs message, title and authors")
	case cff.License != "Apache-2.0":
		t.Errorf("license %q, want Apache-2.0 (LICENSE)", cff.License)
	case cff.Preferred.Type != "article" ||
		cff.Preferred.Title != "Scalable Real-Time Recurrent Learning Using Columnar-Constructive Networks" ||
		cff.Preferred.Journal != "Journal of Machine Learning Research" || cff.Preferred.Volume != 24 || cff.Preferred.Year != 2023:
		t.Errorf("preferred-citation is not the paper: %+v", cff.Preferred)
	case len(cff.Preferred.Authors) != 4 || cff.Preferred.Authors[0]["family-names"] != "Javed":
		t.Errorf("preferred-citation authors: %v", cff.Preferred.Authors)
	}
}

// TestSlurmClusterStoppedPassOrFail: make test-slurm stops what it started
// whether the test passes, fails, or the cluster does not come up (the
// scripts replaced by commands that leave a mark).
func TestSlurmClusterStoppedPassOrFail(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	for _, tc := range []struct {
		name     string
		up, gotc string
		ok       bool
	}{
		{"test passes", "true", "true", true},
		{"test fails", "true", "false", false},
		{"cluster does not start", "false", "true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mark := filepath.Join(t.TempDir(), "down")
			cmd := exec.Command("make", "-s", "-C", "..", "test-slurm", "SLURM_UP="+tc.up, "SLURM_DOWN=touch "+mark, "GO="+tc.gotc)
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.ok {
				t.Errorf("make test-slurm: err %v, want success %v\n%s", err, tc.ok, out)
			}
			if _, err := os.Stat(mark); err != nil {
				t.Errorf("the cluster was not stopped (%v)\n%s", err, out)
			}
		})
	}
}

// TestMachineFiguresNotCommitted: figures that depend on the machine (the
// cost timings) and the smoke figures are ignored by git and not tracked, so
// make plots leaves a clean checkout.
func TestMachineFiguresNotCommitted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if err := exec.Command("git", "-C", "..", "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout")
	}
	paths := []string{"figures/quick/cost.png", "figures/paper/cost.png", "figures/smoke/learning-curves.png"}
	out, err := exec.Command("git", append([]string{"-C", "..", "check-ignore"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("git check-ignore: %v", err)
	}
	if got := strings.Fields(string(out)); len(got) != len(paths) {
		t.Errorf("ignored: %v, want all of %v", got, paths)
	}
	tracked, err := exec.Command("git", "-C", "..", "ls-files", "figures/smoke", "figures/*/cost.png").Output()
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSpace(string(tracked)); s != "" {
		t.Errorf("tracked machine-dependent or smoke figures:\n%s", s)
	}
}

// TestComputeQueueStudies: every study that scripts/compute-queue.sh names
// is an experiment file with the scale its step runs it at, and none is
// named twice (a misspelt study or a scale the file lacks would stop the
// queue at that step on some later machine).
func TestComputeQueueStudies(t *testing.T) {
	cmd := exec.Command("sh", "../scripts/compute-queue.sh", "/queue")
	cmd.Env = append(os.Environ(), "DRY=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 {
		t.Fatalf("compute-queue.sh printed %d steps:\n%s", len(lines), out)
	}
	seen := map[string]bool{}
	for _, l := range lines {
		var scale, studies string
		for _, f := range strings.Fields(l) {
			if v, ok := strings.CutPrefix(f, "SCALE="); ok {
				scale = v
			}
			if v, ok := strings.CutPrefix(f, "STUDIES="); ok {
				studies = strings.Trim(v, `"`)
			}
		}
		if scale == "" || !strings.HasSuffix(l, "/queue/"+scale) {
			t.Errorf("step %q: no SCALE, or not WORKROOT/SCALE", l)
		}
		for _, s := range strings.Fields(studies) {
			if seen[s] {
				t.Errorf("study %s queued twice", s)
			}
			seen[s] = true
			b, err := os.ReadFile(filepath.Join("..", "experiments", "configs", s+".yaml"))
			if err != nil {
				t.Errorf("step %q: %v", l, err)
				continue
			}
			var f struct {
				Scales map[string]any `yaml:"scales"`
			}
			if err := yaml.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			if _, ok := f.Scales[scale]; !ok {
				t.Errorf("step %q: %s.yaml has no scale %s", l, s, scale)
			}
		}
	}
}
