package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/ccn-go/ccn/arch"
)

// IsZero reports whether s is unset (zero, or nil for lambda) in c.
func (s Setting) IsZero(c *RunConfig) bool {
	return reflect.ValueOf(s.Field(c)).Elem().IsZero()
}

// set sets s in c to v, a value of the field's type (a float64 for lambda).
func (s Setting) set(c *RunConfig, v any) {
	switch p := s.Field(c).(type) {
	case **float64:
		x := v.(float64)
		*p = &x
	default:
		f := reflect.ValueOf(p).Elem()
		f.Set(reflect.ValueOf(v).Convert(f.Type()))
	}
}

// Copy sets s in dst to its value in src.
func (s Setting) Copy(dst, src *RunConfig) {
	reflect.ValueOf(s.Field(dst)).Elem().Set(reflect.ValueOf(s.Field(src)).Elem())
}

// Format returns the value of s in c as text that Parse reads back exactly:
// floats in their shortest exact form, an unset lambda as "".
func (s Setting) Format(c *RunConfig) string {
	switch p := s.Field(c).(type) {
	case *float64:
		return strconv.FormatFloat(*p, 'g', -1, 64)
	case **float64:
		if *p == nil {
			return ""
		}
		return strconv.FormatFloat(**p, 'g', -1, 64)
	case *int:
		if w, ok := s.word(*p); ok {
			return w
		}
		return strconv.Itoa(*p)
	default:
		return fmt.Sprint(reflect.ValueOf(p).Elem().Interface())
	}
}

// Parse sets s in c from text, as given on the command line. Integers may be
// written in floating-point notation (1e6) when their value is integral.
func (s Setting) Parse(c *RunConfig, text string) error {
	switch p := s.Field(c).(type) {
	case *int:
		if w, ok := s.Words[text]; ok {
			*p = w
			return nil
		}
		v, err := parseInt(text, 64)
		if err != nil && s.Words != nil {
			return fmt.Errorf("%q is not an integer or %s", text, s.wordList())
		}
		if err != nil {
			return err
		}
		*p = int(v)
	case *uint64:
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(text, 64)
			if ferr != nil || f < 0 || f != math.Trunc(f) || f >= math.Ldexp(1, 64) {
				return fmt.Errorf("%q is not a non-negative integer", text)
			}
			v = uint64(f)
		}
		*p = v
	case *float64:
		v, err := parseFloat(text)
		if err != nil {
			return err
		}
		*p = v
	case **float64:
		v, err := parseFloat(text)
		if err != nil {
			return err
		}
		*p = &v
	case *string:
		*p = text
	case *arch.Method:
		*p = arch.Method(text)
	case *bool:
		v, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("%q is not true or false", text)
		}
		*p = v
	default:
		panic(fmt.Sprintf("experiments: setting %s has an unsupported field type %T", s.Key, p))
	}
	return nil
}

// parseInt reads a decimal integer, or a float with an integral value that
// fits in an int of the given bits (so 1e6 and 2.5e6 are accepted).
func parseInt(text string, bits int) (int64, error) {
	if v, err := strconv.ParseInt(text, 10, bits); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) >= math.Ldexp(1, bits-1) {
		return 0, fmt.Errorf("%q is not an integer", text)
	}
	return int64(f), nil
}

func parseFloat(text string) (float64, error) {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", text)
	}
	return v, nil
}

// MarshalJSON writes c as a JSON object of every setting in table order (the
// "config" object of summary.json), but those marked OmitZero while zero.
func (c RunConfig) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for _, s := range Settings {
		if s.OmitZero && s.IsZero(&c) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(s.Key)
		var v []byte
		var err error
		if p, ok := s.Field(&c).(*int); ok {
			if w, ok := s.word(*p); ok {
				v, err = json.Marshal(w) // "auto"
			}
		}
		if v == nil {
			v, err = json.Marshal(s.Field(&c))
		}
		if err != nil {
			return nil, fmt.Errorf("experiments: setting %s: %w", s.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a JSON object of settings; unknown keys and values of
// the wrong type are errors. Keys that are absent leave their field alone.
func (c *RunConfig) UnmarshalJSON(b []byte) error {
	_, err := c.decodeJSON(b)
	return err
}

// decodeJSON is UnmarshalJSON that also returns the keys present.
func (c *RunConfig) decodeJSON(b []byte) ([]string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	var keys []string
	for k, v := range raw {
		s, ok := Lookup(k)
		if !ok {
			return nil, unknownKey(k)
		}
		if err := s.decodeJSONValue(c, v); err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

func (s Setting) decodeJSONValue(c *RunConfig, v json.RawMessage) error {
	if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
		reflect.ValueOf(s.Field(c)).Elem().SetZero()
		return nil
	}
	switch s.Field(c).(type) {
	case *int, *uint64:
		var w string
		if json.Unmarshal(v, &w) == nil && s.Words != nil {
			if err := s.Parse(c, w); err != nil {
				return badValue(s, string(v), "is not an integer or "+s.wordList())
			}
			return nil
		}
		var n json.Number
		if err := json.Unmarshal(v, &n); err != nil {
			return badValue(s, string(v), "is not an integer")
		}
		if err := s.Parse(c, n.String()); err != nil {
			return badValue(s, n.String(), "is not an integer")
		}
		return nil
	}
	if err := json.Unmarshal(v, s.Field(c)); err != nil {
		return badValue(s, string(v), "has the wrong type")
	}
	return nil
}

// UnmarshalYAML reads a YAML mapping of settings like UnmarshalJSON.
func (c *RunConfig) UnmarshalYAML(n *yaml.Node) error {
	_, err := c.decodeYAML(n)
	return err
}

func (c *RunConfig) decodeYAML(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: line %d: want a mapping of settings", ErrInvalid, n.Line)
	}
	var keys []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		s, ok := Lookup(k)
		if !ok {
			return nil, unknownKey(k)
		}
		if v.Kind != yaml.ScalarNode {
			return nil, badValue(s, "", fmt.Sprintf("at line %d is not a single value", v.Line))
		}
		if v.Tag == "!!null" {
			reflect.ValueOf(s.Field(c)).Elem().SetZero()
		} else if err := s.Parse(c, v.Value); err != nil {
			return nil, badValue(s, v.Value, strings.TrimPrefix(err.Error(), strconv.Quote(v.Value)+" "))
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// DecodeFile reads the settings of a run file, JSON when isJSON, else YAML,
// and returns them with the keys it sets. It refuses unknown keys, values of
// the wrong type and an explicit 0 for a setting whose zero means its default.
// A zero (0, false, "") for a setting that does not apply to the file's
// method (Setting.For; the method is CCN when the file names none) is
// accepted and sets nothing, as summary.json writes every setting. A
// summary.json is a run file: its "config" object is read and the rest of
// the summary ignored, so that
//
//	ccn run --config DIR/summary.json --out NEW
//
// recomputes the run of DIR.
func DecodeFile(b []byte, isJSON bool) (RunConfig, []string, error) {
	var c RunConfig
	var keys []string
	var err error
	if isJSON {
		dec := json.NewDecoder(bytes.NewReader(b))
		var raw json.RawMessage
		if err = dec.Decode(&raw); err == nil {
			if dec.More() {
				return c, nil, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalid)
			}
			raw = summaryConfig(raw)
			keys, err = c.decodeJSON(raw)
		}
	} else {
		var n yaml.Node
		if err = yaml.Unmarshal(b, &n); err == nil {
			if len(n.Content) == 0 {
				return c, nil, nil // an empty file sets nothing
			}
			keys, err = c.decodeYAML(&n)
		}
	}
	if err != nil {
		return c, nil, err
	}
	method := c.Method
	if method == "" {
		method = DefaultMethod // as Resolve
	}
	for i := 0; i < len(keys); i++ {
		k := keys[i]
		if s, _ := Lookup(k); !s.Applies(method) && s.IsZero(&c) {
			// A zero for a setting of another method (as summary.json
			// stores it) sets nothing.
			keys = slices.Delete(keys, i, i+1)
			i--
			continue
		}
		if err := CheckExplicit(&c, k); err != nil {
			return c, nil, err
		}
	}
	return c, keys, nil
}

// summaryConfig returns the "config" object of raw if raw is a summary.json
// (an object whose "config" member is an object; no setting is called
// "config"), else raw.
func summaryConfig(raw json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return raw
	}
	if cfg, ok := top["config"]; ok && bytes.HasPrefix(bytes.TrimSpace(cfg), []byte("{")) {
		return cfg
	}
	return raw
}

// CheckExplicit returns a *ConfigError if setting key of c was given
// explicitly as 0 while its zero value means "the default".
func CheckExplicit(c *RunConfig, key string) error {
	s, _ := Lookup(key)
	if s.ZeroMeansDefault() && s.IsZero(c) {
		return &ConfigError{Key: key, Problem: key + " must be positive, got 0"}
	}
	return nil
}

func unknownKey(k string) error {
	return &ConfigError{Key: k, Problem: fmt.Sprintf("unknown setting %q (want one of %s)", k, strings.Join(Keys(), ", "))}
}

func badValue(s Setting, v, what string) error {
	if v == "" {
		return &ConfigError{Key: s.Key, Problem: s.Key + " " + what}
	}
	return &ConfigError{Key: s.Key, Problem: fmt.Sprintf("%s %s %s", s.Key, v, what)}
}
