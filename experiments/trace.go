package experiments

import (
	"fmt"

	"github.com/ccn-go/ccn/env"
	"github.com/ccn-go/ccn/env/catalog"
)

// trace returns the trace patterning task of c (its zero fields: the
// paper's values, env.DefaultTraceConfig); Gamma is left to catalog.New.
func (c RunConfig) trace() env.TraceConfig {
	return env.TraceConfig{ISIMin: c.ISIMin, ISIMax: c.ISIMax, ITIMin: c.ITIMin, ITIMax: c.ITIMax, Distractors: c.Distractors}
}

// Trace returns the trace patterning task of r with every field resolved
// (zero settings take the paper's values) and r's discount.
func (r Resolved) Trace() env.TraceConfig {
	t := r.c.trace()
	t.Gamma = r.c.Gamma
	return t.WithDefaults()
}

// traceSetting returns the Check of a trace patterning setting: zero (the
// paper's value) on every environment; otherwise only on trace patterning,
// and never negative; then rel, given the task with zero fields resolved,
// returns what is wrong with the relation of the setting to the rows above
// it ("" if nothing).
//
// The relations: ISI minimum ≤ ISI maximum, ITI minimum ≤ ITI maximum, and
// trials separated,
//
//	ITI minimum ≥ ISI maximum,
//
// so that the gap after a trial's US (or the step it would have come) is at
// least as long as the longest dependency within a trial: the last CS before
// a US is then always more than ISI maximum steps after the previous US, and
// the next trial cannot start inside the interval a learner must bridge.
func traceSetting(v func(c *RunConfig) int, rel func(t env.TraceConfig) string) func(c *RunConfig) string {
	return func(c *RunConfig) string {
		x := v(c)
		switch {
		case x == 0:
			return ""
		case c.Env != catalog.TracePatterning:
			return "does not apply to env " + c.Env + " (trace-patterning only)"
		case x < 0:
			return "must not be negative (0: the paper's value)"
		}
		if rel == nil {
			return ""
		}
		return rel(c.trace().WithDefaults())
	}
}

// traceHelp is the help text of a trace patterning setting whose paper value
// is paper.
func traceHelp(what string, paper int) string {
	return fmt.Sprintf("trace patterning: %s (0: the paper's %d)", what, paper)
}
