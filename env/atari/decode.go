package atari

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of experience.proto.
const (
	fieldExperiences protowire.Number = 1
	fieldEnvName     protowire.Number = 2
	fieldPolicy      protowire.Number = 3

	fieldReward  protowire.Number = 1
	fieldReading protowire.Number = 2
	fieldDone    protowire.Number = 3
	fieldAction  protowire.Number = 4
)

// maxMessage bounds the length of one record or string, so that a corrupt
// length cannot make the decoder allocate without limit (a 275-value record
// takes about 1.4 KB).
const maxMessage = 1 << 20

// Experience is one record of a recorded stream.
type Experience struct {
	Reward  float32
	Reading []float32 // sensor_reading: FrameSize or Inputs values
	Done    bool
	Action  int32
}

// Observe writes the observation of e into dst (length Inputs): a reading of
// FrameSize values followed by the one-hot action and the clipped reward, or
// a reading of Inputs values as it is. It panics on any other length or an
// action outside [0, Actions); Decoder.Next refuses such records.
func (e *Experience) Observe(dst []float64) {
	switch len(e.Reading) {
	case FrameSize:
		for i, v := range e.Reading {
			dst[i] = float64(v)
		}
		SetActionReward(dst, int(e.Action), float64(e.Reward))
	case Inputs:
		if len(dst) != Inputs {
			panic(fmt.Sprintf("atari: observation length %d, want %d", len(dst), Inputs))
		}
		for i, v := range e.Reading {
			dst[i] = float64(v)
		}
	default:
		panic(fmt.Sprintf("atari: reading of %d values", len(e.Reading)))
	}
}

// Decoder reads the records of an ExperienceBuffer message one at a time.
// Fields may come in any order; unknown fields are skipped; sensor_reading
// may be packed, unpacked or both. The strings enviroment_name and
// policy_type are known once Next has returned io.EOF.
type Decoder struct {
	r      *bufio.Reader
	off    int64 // bytes consumed
	record int64 // index of the next record
	msg    []byte

	// Name and Policy are the enviroment_name and policy_type fields.
	Name, Policy string
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReaderSize(r, 1<<16)}
}

// Reset makes d read a new message from r, keeping its buffers.
func (d *Decoder) Reset(r io.Reader) {
	d.r.Reset(r)
	d.off, d.record, d.Name, d.Policy = 0, 0, "", ""
}

// Offset returns the number of bytes consumed so far.
func (d *Decoder) Offset() int64 { return d.off }

// Next decodes the next record into e, reusing e.Reading's storage, and
// checks it: a reading of FrameSize or Inputs finite values, an action in
// 0..17 and a finite reward. At the end of the message it returns io.EOF.
// Other errors are *RecordError values wrapping ErrTruncated, ErrCorrupt,
// ErrReadingLength, ErrReading, ErrAction or ErrReward, or I/O errors.
// In steady state it does not allocate.
func (d *Decoder) Next(e *Experience) error {
	for {
		start := d.off
		num, typ, err := d.tag()
		if err != nil {
			return err
		}
		if typ != protowire.BytesType {
			if err := d.skipScalar(start, num, typ); err != nil {
				return err
			}
			continue
		}
		n, err := d.varint(start, false)
		if err != nil {
			return err
		}
		if n > maxMessage {
			return d.fail(start, ErrCorrupt, fmt.Sprintf("field %d of length %d", num, n))
		}
		if cap(d.msg) < int(n) {
			d.msg = make([]byte, n)
		}
		d.msg = d.msg[:n]
		if _, err := io.ReadFull(d.r, d.msg); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return d.fail(start, ErrTruncated, fmt.Sprintf("field %d needs %d bytes", num, n))
			}
			return err
		}
		d.off += int64(n)
		switch num {
		case fieldExperiences:
			err := d.experience(e, start)
			d.record++
			return err
		case fieldEnvName:
			d.Name = string(d.msg)
		case fieldPolicy:
			d.Policy = string(d.msg)
		}
	}
}

func (d *Decoder) fail(start int64, sentinel error, detail string) error {
	return &RecordError{Record: d.record, Offset: start, Err: sentinel, Detail: detail}
}

// tag reads a top-level tag; io.EOF when the message ends cleanly.
func (d *Decoder) tag() (protowire.Number, protowire.Type, error) {
	v, err := d.varint(d.off, true)
	if err != nil {
		return 0, 0, err
	}
	num, typ := protowire.DecodeTag(v)
	if !num.IsValid() {
		return 0, 0, d.fail(d.off, ErrCorrupt, fmt.Sprintf("invalid field number %d", num))
	}
	return num, typ, nil
}

// skipScalar skips the value of an unknown top-level scalar field; the
// known fields are all length-delimited.
func (d *Decoder) skipScalar(start int64, num protowire.Number, typ protowire.Type) error {
	size := 0
	switch {
	case num <= fieldPolicy:
		return d.fail(start, ErrCorrupt, fmt.Sprintf("field %d has wire type %d", num, typ))
	case typ == protowire.VarintType:
		_, err := d.varint(start, false)
		return err
	case typ == protowire.Fixed32Type:
		size = 4
	case typ == protowire.Fixed64Type:
		size = 8
	default:
		return d.fail(start, ErrCorrupt, fmt.Sprintf("field %d has wire type %d", num, typ))
	}
	n, err := d.r.Discard(size)
	d.off += int64(n)
	if err == io.EOF {
		return d.fail(start, ErrTruncated, fmt.Sprintf("field %d needs %d bytes", num, size))
	}
	return err
}

// varint reads one varint; at a clean end of input it returns io.EOF if
// atStart, else ErrTruncated.
func (d *Decoder) varint(start int64, atStart bool) (uint64, error) {
	b, err := d.r.Peek(binaryMaxVarint)
	if len(b) == 0 {
		if err == io.EOF {
			if atStart {
				return 0, io.EOF
			}
			return 0, d.fail(start, ErrTruncated, "file ends inside a field")
		}
		return 0, err
	}
	v, n := protowire.ConsumeVarint(b)
	if n < 0 {
		if len(b) < binaryMaxVarint && err == io.EOF {
			return 0, d.fail(start, ErrTruncated, "file ends inside a varint")
		}
		return 0, d.fail(start, ErrCorrupt, protowire.ParseError(n).Error())
	}
	d.r.Discard(n)
	d.off += int64(n)
	return v, nil
}

const binaryMaxVarint = 10

// experience decodes d.msg into e and checks it.
func (d *Decoder) experience(e *Experience, start int64) error {
	b := d.msg
	e.Reading = e.Reading[:0]
	var haveReward, haveDone, haveAction bool
	corrupt := func(format string, args ...any) error {
		return d.fail(start, ErrCorrupt, fmt.Sprintf(format, args...))
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return corrupt("experience: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case num == fieldReward && typ == protowire.Fixed32Type:
			v, n := protowire.ConsumeFixed32(b)
			if n < 0 {
				return corrupt("reward: %v", protowire.ParseError(n))
			}
			e.Reward, haveReward, b = math.Float32frombits(v), true, b[n:]
		case num == fieldReading && typ == protowire.Fixed32Type:
			v, n := protowire.ConsumeFixed32(b)
			if n < 0 {
				return corrupt("sensor_reading: %v", protowire.ParseError(n))
			}
			e.Reading, b = append(e.Reading, math.Float32frombits(v)), b[n:]
		case num == fieldReading && typ == protowire.BytesType:
			p, n := protowire.ConsumeBytes(b)
			if n < 0 || len(p)%4 != 0 {
				return corrupt("packed sensor_reading of %d bytes", len(p))
			}
			for ; len(p) > 0; p = p[4:] {
				v, _ := protowire.ConsumeFixed32(p)
				e.Reading = append(e.Reading, math.Float32frombits(v))
			}
			b = b[n:]
		case num == fieldDone && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return corrupt("done: %v", protowire.ParseError(n))
			}
			e.Done, haveDone, b = protowire.DecodeBool(v), true, b[n:]
		case num == fieldAction && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return corrupt("action: %v", protowire.ParseError(n))
			}
			// int32 values are sign-extended to 64 bits on the wire.
			e.Action, haveAction, b = int32(int64(v)), true, b[n:]
			if int64(v) != int64(e.Action) {
				return d.fail(start, ErrAction, fmt.Sprintf("action %d", int64(v)))
			}
		case num >= fieldReward && num <= fieldAction:
			return corrupt("field %d has wire type %d", num, typ)
		default:
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return corrupt("unknown field %d: %v", num, protowire.ParseError(n))
			}
			b = b[n:]
		}
	}
	switch {
	case !haveReward:
		return corrupt("required field reward missing")
	case !haveDone:
		return corrupt("required field done missing")
	case !haveAction:
		return corrupt("required field action missing")
	case len(e.Reading) != FrameSize && len(e.Reading) != Inputs:
		return d.fail(start, ErrReadingLength, fmt.Sprintf("%d values", len(e.Reading)))
	case e.Action < 0 || e.Action >= Actions:
		return d.fail(start, ErrAction, fmt.Sprintf("action %d", e.Action))
	case !finite(float64(e.Reward)):
		return d.fail(start, ErrReward, fmt.Sprintf("reward %v", e.Reward))
	}
	for i, v := range e.Reading {
		if !finite(float64(v)) {
			return d.fail(start, ErrReading, fmt.Sprintf("value %d is %v", i, v))
		}
	}
	return nil
}
