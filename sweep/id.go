package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/ccn-go/ccn/experiments"
)

// ID returns the name of the run directory of cfg: the method followed by the
// first 16 hexadecimal digits of the SHA-256 of the resolved configuration r in
// canonical JSON,
//
//	ID = method "-" hex(sha256(canonical(cfg)))[:16]
//
// where canonical keeps only the non-zero fields, keys sorted, so that a field
// added to RunConfig later (zero by default) leaves existing IDs unchanged.
func ID(r experiments.Resolved) string {
	cfg := r.Config()
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

// ConfigKeys returns the keys of the run settings (experiments.Settings, the
// flag names of `ccn run`) in table order.
func ConfigKeys() []string { return experiments.Keys() }
