package truncation

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/ccn-go/ccn/arch"
)

// Column headers of the CSV files.
var (
	biasHeader = []string{"method", "hidden", "params", "k", "draws", "rel_err", "rel_err_se", "rel_err_sd",
		"cos", "cos_se", "cos_sd", "samples", "seeds", "ops_per_step", "ns_per_step"}
	costHeader = []string{"method", "label", "size", "params", "us_per_step"}
)

// BiasMethods returns the estimators of the gradient-bias study (Bias), in
// the order its figure draws them: T-BPTT, the two approximations of RTRL,
// and exact RTRL, the witness.
func BiasMethods() []arch.Method {
	return []arch.Method{arch.MethodTBPTT, arch.MethodSnAp1, arch.MethodUORO, arch.MethodRTRL}
}

// WriteBiasCSV writes points as CSV with a header row.
func WriteBiasCSV(w io.Writer, points []BiasPoint) error {
	cw := csv.NewWriter(w)
	cw.Write(biasHeader)
	for _, p := range points {
		cw.Write([]string{
			string(p.Method), strconv.Itoa(p.Hidden), strconv.Itoa(p.Params), strconv.Itoa(p.K), strconv.Itoa(p.Draws),
			ftoa(p.RelErr), ftoa(p.RelErrSE), ftoa(p.RelErrSD), ftoa(p.Cos), ftoa(p.CosSE), ftoa(p.CosSD),
			strconv.Itoa(p.Samples), strconv.Itoa(p.Seeds), strconv.Itoa(p.Ops), ftoa(p.Nanos),
		})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("truncation: write bias CSV: %w", err)
	}
	return nil
}

// ReadBiasCSV reads points written by WriteBiasCSV.
func ReadBiasCSV(r io.Reader) ([]BiasPoint, error) {
	rows, err := readCSV(r, biasHeader, "bias")
	if err != nil {
		return nil, err
	}
	out := make([]BiasPoint, len(rows))
	for i, row := range rows {
		p := &out[i]
		var ps parser
		p.Method = arch.Method(row[0])
		p.Hidden, p.Params, p.K, p.Draws = ps.int(row[1]), ps.int(row[2]), ps.int(row[3]), ps.int(row[4])
		p.RelErr, p.RelErrSE, p.RelErrSD = ps.float(row[5]), ps.float(row[6]), ps.float(row[7])
		p.Cos, p.CosSE, p.CosSD = ps.float(row[8]), ps.float(row[9]), ps.float(row[10])
		p.Samples, p.Seeds, p.Ops, p.Nanos = ps.int(row[11]), ps.int(row[12]), ps.int(row[13]), ps.float(row[14])
		if ps.err != nil {
			return nil, fmt.Errorf("truncation: bias CSV row %d: %w", i+2, ps.err)
		}
		if !slices.Contains(BiasMethods(), p.Method) {
			return nil, fmt.Errorf("truncation: bias CSV row %d: method %q is not one of %v", i+2, p.Method, BiasMethods())
		}
	}
	return out, nil
}

// WriteCostCSV writes points as CSV with a header row.
func WriteCostCSV(w io.Writer, points []CostPoint) error {
	cw := csv.NewWriter(w)
	cw.Write(costHeader)
	for _, p := range points {
		cw.Write([]string{string(p.Method), p.Label, strconv.Itoa(p.Size), strconv.Itoa(p.Params), ftoa(p.Micros)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("truncation: write cost CSV: %w", err)
	}
	return nil
}

// ReadCostCSV reads points written by WriteCostCSV.
func ReadCostCSV(r io.Reader) ([]CostPoint, error) {
	rows, err := readCSV(r, costHeader, "cost")
	if err != nil {
		return nil, err
	}
	out := make([]CostPoint, len(rows))
	for i, row := range rows {
		var ps parser
		out[i] = CostPoint{Method: arch.Method(row[0]), Label: row[1], Size: ps.int(row[2]), Params: ps.int(row[3]), Micros: ps.float(row[4])}
		if ps.err != nil {
			return nil, fmt.Errorf("truncation: cost CSV row %d: %w", i+2, ps.err)
		}
	}
	return out, nil
}

// readCSV reads every row after a header that must equal header.
func readCSV(r io.Reader, header []string, what string) ([][]string, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, after the header
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("truncation: read %s CSV: %w", what, err)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], header) {
		return nil, fmt.Errorf("truncation: read %s CSV: header is not %s (a file of an older ccn truncation? run it again)",
			what, strings.Join(header, ","))
	}
	for i, row := range rows[1:] {
		if len(row) != len(header) {
			return nil, fmt.Errorf("truncation: read %s CSV: row %d has %d fields, want %d", what, i+2, len(row), len(header))
		}
	}
	return rows[1:], nil
}

// ftoa formats v exactly (shortest round-trip form).
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// parser parses fields, keeping the first error.
type parser struct{ err error }

func (p *parser) int(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil && p.err == nil {
		p.err = err
	}
	return v
}

func (p *parser) float(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && p.err == nil {
		p.err = err
	}
	return v
}
