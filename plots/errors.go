package plots

import "fmt"

// MissingError reports that a figure cannot be drawn because part of its data
// is missing or unusable.
type MissingError struct {
	Figure string // the figure's title or kind
	What   string // what is missing, e.g. `curve "CCN": no points`
}

func (e *MissingError) Error() string {
	return fmt.Sprintf("plots: figure %q: missing data: %s", e.Figure, e.What)
}

// missing returns a *MissingError for figure fig.
func missing(fig, format string, args ...any) error {
	return &MissingError{Figure: fig, What: fmt.Sprintf(format, args...)}
}
