package truncation

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ccn-go/ccn/internal/atomicfile"
)

// File names written into a results directory.
const (
	BiasCSV = "gradient_bias.csv"
	CostCSV = "cost.csv"
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
		Bias: BiasConfig{Points: 20, Seeds: 3, Timing: 10 * time.Millisecond},
		Cost: CostConfig{
			Features: []int{4, 16, 64}, Hidden: []int{2, 8, 32}, RTRLHidden: []int{2, 4, 8, 16},
			Ks: []int{1, 10, 30}, Duration: 30 * time.Millisecond, Repeats: 3,
		},
	}
}

// Run runs the study and writes its two CSV files into dir (created if
// needed), each atomically. Package report draws the figures from them. It
// panics if cfg is not valid (Validate).
func Run(dir string, cfg Config) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("truncation: %w", err)
	}
	bias, err := GradientBias(cfg.Bias)
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, BiasCSV), func(w io.Writer) error { return WriteBiasCSV(w, bias) }); err != nil {
		return err
	}
	cost := Cost(cfg.Cost)
	return writeFile(filepath.Join(dir, CostCSV), func(w io.Writer) error { return WriteCostCSV(w, cost) })
}

// writeFile writes what write produces to path atomically.
func writeFile(path string, write func(io.Writer) error) error {
	if err := atomicfile.Write(path, 0o644, write); err != nil {
		return fmt.Errorf("truncation: write %s: %w", path, err)
	}
	return nil
}
