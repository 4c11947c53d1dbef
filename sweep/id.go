package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/ccn-go/ccn/experiments"
)

// ID returns the name of the run directory of cfg: the method followed by the
// first 16 hexadecimal digits of the SHA-256 of the resolved configuration in
// canonical JSON,
//
//	ID = method "-" hex(sha256(canonical(Resolve(cfg))))[:16]
//
// where canonical keeps only the non-zero fields, keys sorted, so that a field
// added to RunConfig later (zero by default) leaves existing IDs unchanged.
func ID(cfg experiments.RunConfig) string {
	cfg = cfg.Resolve()
	sum := sha256.Sum256(canonical(cfg))
	return string(cfg.Method) + "-" + hex.EncodeToString(sum[:8])
}

// canonical returns the JSON object of the non-zero fields of cfg with sorted
// keys.
func canonical(cfg experiments.RunConfig) []byte {
	b, err := json.Marshal(cfg)
	if err != nil {
		panic("sweep: marshal run config: " + err.Error())
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic("sweep: unmarshal run config: " + err.Error())
	}
	for k, v := range m {
		switch v := v.(type) {
		case nil:
			delete(m, k)
		case bool:
			if !v {
				delete(m, k)
			}
		case string:
			if v == "" {
				delete(m, k)
			}
		case float64:
			if v == 0 {
				delete(m, k)
			}
		}
	}
	b, err = json.Marshal(m) // encoding/json sorts map keys
	if err != nil {
		panic("sweep: marshal canonical config: " + err.Error())
	}
	return b
}

// configField is one field of a RunConfig with its key.
type configField struct {
	key   string
	value reflect.Value
}

// configFields returns the fields of cfg that have a JSON key, in
// declaration order.
func configFields(cfg experiments.RunConfig) []configField {
	v := reflect.ValueOf(cfg)
	t := v.Type()
	fs := make([]configField, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			fs = append(fs, configField{name, v.Field(i)})
		}
	}
	return fs
}

// ConfigKeys returns the keys of experiments.RunConfig (the flag names of
// `ccn run`) in declaration order.
func ConfigKeys() []string {
	var keys []string
	for _, f := range configFields(experiments.RunConfig{}) {
		keys = append(keys, f.key)
	}
	return keys
}

// configValues returns the values of cfg's fields as strings, in the order of
// ConfigKeys: floats in the shortest form that reads back exactly, a nil
// lambda as "".
func configValues(cfg experiments.RunConfig) []string {
	var vals []string
	for _, f := range configFields(cfg) {
		vals = append(vals, formatValue(f.value))
	}
	return vals
}

func formatValue(f reflect.Value) string {
	switch f.Kind() {
	case reflect.Pointer:
		if f.IsNil() {
			return ""
		}
		return formatValue(f.Elem())
	case reflect.Float64:
		return formatFloat(f.Float())
	default:
		return fmt.Sprint(f.Interface())
	}
}
