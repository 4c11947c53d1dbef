package atari

import (
	"errors"
	"fmt"
)

// Errors of a recorded stream, wrapped in a *RecordError that says where.
var (
	// ErrTruncated: the file ends inside a field.
	ErrTruncated = errors.New("atari: file truncated")
	// ErrCorrupt: bytes that are not an ExperienceBuffer message (a bad
	// tag, wire type or length, or a record without a required field).
	ErrCorrupt = errors.New("atari: file corrupt")
	// ErrEmpty: a file without records.
	ErrEmpty = errors.New("atari: no records")
	// ErrReadingLength: a sensor reading that has neither FrameSize (256)
	// nor Inputs (275) values, or differs in length from the first record's.
	ErrReadingLength = errors.New("atari: sensor reading length not 256 or 275")
	// ErrReading: a sensor reading value that is NaN or ±Inf.
	ErrReading = errors.New("atari: non-finite sensor reading")
	// ErrAction: an action outside 0..17.
	ErrAction = errors.New("atari: action outside 0..17")
	// ErrReward: a reward that is NaN or ±Inf.
	ErrReward = errors.New("atari: non-finite reward")
)

// RecordError reports a refused record: its index (from 0) and the byte
// offset where it starts, and which of the errors above it is.
type RecordError struct {
	Record int64
	Offset int64
	Err    error  // one of the sentinel errors of this package
	Detail string // what exactly, for the message
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%v: record %d at byte %d: %s", e.Err, e.Record, e.Offset, e.Detail)
}

func (e *RecordError) Unwrap() error { return e.Err }
