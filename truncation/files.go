package truncation

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ccn-go/ccn/plots"
)

// File names written into a results directory.
const (
	BiasCSV     = "gradient_bias.csv"
	CostCSV     = "cost.csv"
	BiasFigBase = "gradient_bias" // .png and .pdf
	CostFigBase = "cost"
)

// Config is the whole study.
type Config struct {
	Bias BiasConfig
	Cost CostConfig
}

// Validate reports whether both parts of the study can run.
func (c Config) Validate() error {
	if err := c.Bias.Validate(); err != nil {
		return err
	}
	return c.Cost.Validate()
}

// Quick returns a configuration that runs in well under a minute on two
// cores: fewer trajectories, seeds and sizes, shorter timings.
func Quick() Config {
	return Config{
		Bias: BiasConfig{Points: 20, Seeds: 3},
		Cost: CostConfig{
			Features: []int{4, 16, 64}, Hidden: []int{2, 8, 32}, RTRLHidden: []int{2, 4, 8, 16},
			Ks: []int{1, 10, 30}, Duration: 30 * time.Millisecond, Repeats: 3,
		},
	}
}

// Run runs the study and writes its CSVs and figures into dir (created if
// needed). It panics if cfg is not valid (Validate).
func Run(dir string, cfg Config) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	bias, err := GradientBias(cfg.Bias)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteBiasCSV(&buf, bias); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, BiasCSV), buf.Bytes()); err != nil {
		return err
	}
	cost := Cost(cfg.Cost)
	buf.Reset()
	if err := WriteCostCSV(&buf, cost); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, CostCSV), buf.Bytes()); err != nil {
		return err
	}
	return Render(dir, dir)
}

// Render reads the CSVs of a results directory and writes the two figures
// into out, without running anything.
func Render(results, out string) error {
	f, err := os.Open(filepath.Join(results, BiasCSV))
	if err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	bias, err := ReadBiasCSV(f)
	f.Close()
	if err != nil {
		return err
	}
	f, err = os.Open(filepath.Join(results, CostCSV))
	if err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	cost, err := ReadCostCSV(f)
	f.Close()
	if err != nil {
		return err
	}
	bf, err := BiasFigure(bias)
	if err != nil {
		return err
	}
	if err := plots.Save(bf, filepath.Join(out, BiasFigBase)); err != nil {
		return err
	}
	cf, err := CostFigure(cost)
	if err != nil {
		return err
	}
	return plots.Save(cf, filepath.Join(out, CostFigBase))
}

// writeFile writes data to a temporary file next to path and renames it.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	return nil
}
