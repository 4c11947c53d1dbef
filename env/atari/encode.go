package atari

import (
	"bufio"
	"io"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// Encoder writes an ExperienceBuffer message record by record, in the order
// of a canonical proto2 serialization: every record (field 1, sensor_reading
// unpacked, the proto2 default), then enviroment_name and policy_type.
type Encoder struct {
	w            *bufio.Writer
	name, policy string
	msg, buf     []byte
}

// NewEncoder returns an Encoder writing to w; name and policy are written by
// Close.
func NewEncoder(w io.Writer, name, policy string) *Encoder {
	return &Encoder{w: bufio.NewWriterSize(w, 1<<16), name: name, policy: policy}
}

// Write appends one record. It does not check e (Decoder.Next does).
func (enc *Encoder) Write(e *Experience) error {
	m := enc.msg[:0]
	m = protowire.AppendTag(m, fieldReward, protowire.Fixed32Type)
	m = protowire.AppendFixed32(m, math.Float32bits(e.Reward))
	for _, v := range e.Reading {
		m = protowire.AppendTag(m, fieldReading, protowire.Fixed32Type)
		m = protowire.AppendFixed32(m, math.Float32bits(v))
	}
	m = protowire.AppendTag(m, fieldDone, protowire.VarintType)
	m = protowire.AppendVarint(m, protowire.EncodeBool(e.Done))
	m = protowire.AppendTag(m, fieldAction, protowire.VarintType)
	m = protowire.AppendVarint(m, uint64(int64(e.Action)))
	enc.msg = m

	b := protowire.AppendTag(enc.buf[:0], fieldExperiences, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(m)))
	enc.buf = b
	if _, err := enc.w.Write(b); err != nil {
		return err
	}
	_, err := enc.w.Write(m)
	return err
}

// Close writes the strings and flushes; it does not close the writer.
func (enc *Encoder) Close() error {
	var b []byte
	for _, f := range []struct {
		num protowire.Number
		s   string
	}{{fieldEnvName, enc.name}, {fieldPolicy, enc.policy}} {
		if f.s != "" {
			b = protowire.AppendTag(b, f.num, protowire.BytesType)
			b = protowire.AppendString(b, f.s)
		}
	}
	if _, err := enc.w.Write(b); err != nil {
		return err
	}
	return enc.w.Flush()
}
