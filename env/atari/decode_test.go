package atari

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hand-built protobuf bytes, independent of Encoder: tag bytes are
// field<<3 | wire type (0 varint, 2 length-delimited, 5 fixed32).

func uvarint(v uint64) []byte {
	var b []byte
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func f32(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func reward(v float32) []byte { return cat([]byte{1<<3 | 5}, f32(v)) }
func done(d bool) []byte {
	if d {
		return []byte{3 << 3, 1}
	}
	return []byte{3 << 3, 0}
}
func action(a int64) []byte { return cat([]byte{4 << 3}, uvarint(uint64(a))) }
func unpacked(vals []float32) []byte {
	var b []byte
	for _, v := range vals {
		b = cat(b, []byte{2<<3 | 5}, f32(v))
	}
	return b
}
func packed(vals []float32) []byte {
	var p []byte
	for _, v := range vals {
		p = cat(p, f32(v))
	}
	return cat([]byte{2<<3 | 2}, uvarint(uint64(len(p))), p)
}
func record(fields ...[]byte) []byte {
	m := cat(fields...)
	return cat([]byte{1<<3 | 2}, uvarint(uint64(len(m))), m)
}
func str(field byte, s string) []byte {
	return cat([]byte{field<<3 | 2}, uvarint(uint64(len(s))), []byte(s))
}

// ramp returns n readings k/256 + off.
func ramp(n int, off float32) []float32 {
	r := make([]float32, n)
	for i := range r {
		r[i] = float32(i%256)/256 + off
	}
	return r
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "stream.pb")
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

// fixture: three 256-value records, the first packed, the second unpacked,
// the third half of each; the first ends an episode; strings before and
// after; an unknown field at the top level and inside a record.
func fixture() []byte { return cat(fixtureFields()...) }

func fixtureFields() [][]byte {
	r0, r1, r2 := ramp(256, 0), ramp(256, 1), ramp(256, 2)
	return [][]byte{
		str(2, "Test"),
		record(reward(2.5), packed(r0), done(true), action(3)),
		[]byte{9 << 3, 0x96, 0x01}, // unknown top-level varint field 9
		record(action(17), done(false), unpacked(r1), reward(-3), []byte{7 << 3, 5}),
		record(reward(0.25), packed(r2[:128]), done(false), unpacked(r2[128:]), action(0)),
		str(3, "scripted"),
	}
}

func TestFileFixture(t *testing.T) {
	const gamma = 0.5
	s, err := Open(writeTemp(t, fixture()), gamma)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, int64(3), s.Records())
	assert.Equal(t, int64(2), s.Episodes()) // record 0, and record 2 by the wrap
	assert.Equal(t, 256, s.ReadingLength())
	assert.Equal(t, "Test", s.Name())
	assert.Equal(t, "scripted", s.Policy())
	f := fixture()
	assert.Equal(t, int64(len(f)), s.Size())
	sum := sha256.Sum256(f)
	assert.Equal(t, hex.EncodeToString(sum[:]), s.SHA256())

	// Cumulants clip(2.5) = 1, clip(−3) = −1, 0.25. Record 0 is done: G = 0.
	// Record 1: G = c_2 + γ·G_2 = 0.25 (record 2 ends by the wrap, G_2 = 0).
	wantC := []float64{1, -1, 0.25}
	wantG := []float64{0, 0.25, 0}
	wantDone := []bool{true, false, true}
	wantA := []int{3, 17, 0}
	x := make([]float64, Inputs)
	for pass := range 3 { // the wrap replays the file exactly
		for i := range 3 {
			c, g := s.Next(x)
			require.Equal(t, wantC[i], c, "pass %d record %d", pass, i)
			require.Equal(t, wantG[i], g)
			require.Equal(t, wantDone[i], s.Done())
			for k := range FrameSize {
				require.Equal(t, float64(k)/256+float64(i), x[k], "pixel %d", k)
			}
			for k := range Actions {
				want := 0.0
				if k == wantA[i] {
					want = 1
				}
				require.Equal(t, want, x[ActionStart+k])
			}
			require.Equal(t, wantC[i], x[RewardIndex])
		}
	}
}

func TestFile275(t *testing.T) {
	r := ramp(Inputs, 0)
	s, err := Open(writeTemp(t, cat(
		record(reward(1), unpacked(r), done(false), action(5)),
		record(reward(0), packed(r), done(false), action(6)),
	)), 0.9)
	require.NoError(t, err)
	defer s.Close()
	x := make([]float64, Inputs)
	c, g := s.Next(x)
	assert.Equal(t, 1.0, c)
	assert.Equal(t, 0.0, g) // c_1 = 0, then the wrap
	for i, v := range r {
		require.Equal(t, float64(v), x[i], "value %d is taken as it is", i)
	}
	s.Next(x)
	assert.True(t, s.Done())
}

func TestEncoderIsCanonical(t *testing.T) {
	r := ramp(FrameSize, 0)
	var buf bytes.Buffer
	enc := NewEncoder(&buf, "Game", "policy")
	require.NoError(t, enc.Write(&Experience{Reward: 1, Reading: r, Done: true, Action: 2}))
	require.NoError(t, enc.Write(&Experience{Reward: -1, Reading: r, Action: 17}))
	require.NoError(t, enc.Close())
	want := cat(
		record(reward(1), unpacked(r), done(true), action(2)),
		record(reward(-1), unpacked(r), done(false), action(17)),
		str(2, "Game"), str(3, "policy"))
	assert.Equal(t, want, buf.Bytes())

	dec := NewDecoder(&buf)
	var e Experience
	require.NoError(t, dec.Next(&e))
	assert.Equal(t, Experience{Reward: 1, Reading: r, Done: true, Action: 2}, e)
	require.NoError(t, dec.Next(&e))
	assert.Equal(t, int32(17), e.Action)
	assert.Equal(t, io.EOF, dec.Next(&e))
	assert.Equal(t, "Game", dec.Name)
	assert.Equal(t, "policy", dec.Policy)
}

func TestFileRefuses(t *testing.T) {
	r := ramp(FrameSize, 0)
	good := record(reward(1), packed(r), done(false), action(1))
	nan := float32(math.NaN())
	for _, tc := range []struct {
		name   string
		file   []byte
		want   error
		record int64
	}{
		{"empty file", nil, ErrEmpty, 0},
		{"strings only", str(2, "Pong"), ErrEmpty, 0},
		{"length past the end", cat(good, []byte{1<<3 | 2, 0x80, 0x10}, good[3:50]), ErrTruncated, 1},
		{"ends inside a tag's varint", cat(good, []byte{0x80}), ErrTruncated, 1},
		{"ends after a tag", cat(good, []byte{1<<3 | 2}), ErrTruncated, 1},
		{"records as a varint", cat(good, []byte{1 << 3, 1}), ErrCorrupt, 1},
		{"field number 0", cat(good, []byte{0 << 3, 1}), ErrCorrupt, 1},
		{"overlong varint", cat(good, bytes.Repeat([]byte{0xff}, 11)), ErrCorrupt, 1},
		{"huge length", cat(good, []byte{1<<3 | 2}, uvarint(1<<40)), ErrCorrupt, 1},
		{"missing action", cat(good, record(reward(1), packed(r), done(false))), ErrCorrupt, 1},
		{"missing reward", record(packed(r), done(false), action(1)), ErrCorrupt, 0},
		{"missing done", record(reward(0), packed(r), action(1)), ErrCorrupt, 0},
		{"reward as varint", record([]byte{1 << 3, 1}, packed(r), done(false), action(1)), ErrCorrupt, 0},
		{"packed readings not a multiple of 4", record(reward(1), cat([]byte{2<<3 | 2, 3}, []byte{1, 2, 3}), done(false), action(1)), ErrCorrupt, 0},
		{"record shorter than its fields", record(reward(1), packed(r), done(false), []byte{4 << 3}), ErrCorrupt, 0},
		{"100 readings", record(reward(1), packed(r[:100]), done(false), action(1)), ErrReadingLength, 0},
		{"no readings", record(reward(1), done(false), action(1)), ErrReadingLength, 0},
		{"256 then 275", cat(good, record(reward(1), packed(ramp(Inputs, 0)), done(false), action(1))), ErrReadingLength, 1},
		{"action 18", cat(good, good, record(reward(1), packed(r), done(false), action(18))), ErrAction, 2},
		{"action −1", record(reward(1), packed(r), done(false), action(-1)), ErrAction, 0},
		{"action beyond int32", record(reward(1), packed(r), done(false), action(1<<33)), ErrAction, 0},
		{"NaN reward", record(reward(nan), packed(r), done(false), action(1)), ErrReward, 0},
		{"infinite reward", record(reward(float32(math.Inf(-1))), packed(r), done(false), action(1)), ErrReward, 0},
		{"NaN reading", record(reward(0), packed(append(ramp(255, 0), nan)), done(false), action(1)), ErrReading, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(writeTemp(t, tc.file), 0.98)
			require.Error(t, err)
			assert.Nil(t, s)
			assert.ErrorIs(t, err, tc.want)
			var re *RecordError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tc.record, re.Record)
		})
	}
}

// TestFileTruncatedAnywhere cuts the fixture at every byte that is not a
// field boundary of the top level: each cut is refused as truncated.
func TestFileTruncatedAnywhere(t *testing.T) {
	f := fixture()
	boundaries := map[int]bool{0: true}
	n := 0
	for _, field := range fixtureFields() {
		n += len(field)
		boundaries[n] = true
	}
	for cut := 1; cut < len(f); cut++ {
		_, err := newFile(bytes.NewReader(f[:cut]), "fixture", 0.98)
		if boundaries[cut] {
			continue // a shorter, valid file (or one without records)
		}
		require.ErrorIs(t, err, ErrTruncated, "cut at %d", cut)
	}
}

func TestFileMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.pb"), 0.98)
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

func BenchmarkFileNext(b *testing.B) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf, "", "")
	r := ramp(FrameSize, 0)
	for i := range 1000 {
		enc.Write(&Experience{Reward: float32(i % 2), Reading: r, Done: i%100 == 99, Action: int32(i % Actions)})
	}
	enc.Close()
	p := filepath.Join(b.TempDir(), "bench.pb")
	os.WriteFile(p, buf.Bytes(), 0o644)
	s, err := Open(p, Gamma)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	x := make([]float64, Inputs)
	s.Next(x)
	b.ReportAllocs()
	for b.Loop() {
		s.Next(x)
	}
}
