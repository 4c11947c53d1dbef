package atari

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ccn-go/ccn/env"
)

// File is the stream of a recorded ExperienceBuffer file: record t gives the
// observation x_t (Experience.Observe), the cumulant c_t = clip(reward_t) and
// the return G_t of env.EpisodeReturns, with an episode ending at every record
// whose done is set and at the last record. Past the last record the stream
// starts again from the first, so the wrap is an episode boundary.
//
// Open reads the file once to check every record and compute the returns
// (8 bytes per record are kept); Next then streams the records from disk
// again, so a file of any size is never held in memory.
type File struct {
	f       io.ReadSeeker
	path    string
	dec     *Decoder
	exp     Experience
	returns []float64

	records, episodes int64
	readingLen        int
	name, policy      string
	size              int64
	sum               [sha256.Size]byte

	t    int64 // index of the next record
	done bool
}

var (
	_ env.Episodic = (*File)(nil)
	_ env.Recorded = (*File)(nil)
)

// Open opens a recorded stream with discount gamma in [0, 1). Errors: those
// of the file system, and *RecordError values (see Decoder.Next) for a
// refused record, wrapping ErrEmpty for a file without records and
// ErrReadingLength when records differ in reading length.
func Open(path string, gamma float64) (*File, error) {
	if !(gamma >= 0 && gamma < 1) {
		panic(fmt.Sprintf("atari: gamma %v outside [0, 1)", gamma))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := newFile(f, path, gamma)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// newFile reads the stream of r (named path in messages).
func newFile(r io.ReadSeeker, path string, gamma float64) (*File, error) {
	s := &File{f: r, path: path}
	if err := s.scan(gamma); err != nil {
		return nil, err
	}
	return s, nil
}

// scan checks every record, computes the returns and rewinds.
func (s *File) scan(gamma float64) error {
	h := sha256.New()
	count := &countWriter{}
	s.dec = NewDecoder(io.TeeReader(s.f, io.MultiWriter(h, count)))
	dec := s.dec
	var c []float64
	var done []bool
	var e Experience
	for {
		err := dec.Next(&e)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(c) == 0 {
			s.readingLen = len(e.Reading)
		} else if len(e.Reading) != s.readingLen {
			return &RecordError{Record: int64(len(c)), Offset: -1, Err: ErrReadingLength,
				Detail: fmt.Sprintf("%d values, the first record has %d", len(e.Reading), s.readingLen)}
		}
		c = append(c, ClipReward(float64(e.Reward)))
		done = append(done, e.Done)
	}
	if len(c) == 0 {
		return &RecordError{Offset: dec.Offset(), Err: ErrEmpty, Detail: "the file holds no experience"}
	}
	done[len(done)-1] = true // the wrap ends an episode
	for _, d := range done {
		if d {
			s.episodes++
		}
	}
	s.records = int64(len(c))
	s.returns = make([]float64, len(c))
	env.EpisodeReturns(s.returns, c, done, gamma)
	s.name, s.policy = dec.Name, dec.Policy
	s.size = count.n
	h.Sum(s.sum[:0])
	s.exp.Reading = make([]float32, 0, s.readingLen)
	return s.rewind()
}

func (s *File) rewind() error {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	s.dec.Reset(s.f)
	s.t = 0
	return nil
}

// countWriter counts the bytes written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// Size returns the size of the file in bytes.
func (s *File) Size() int64 { return s.size }

// SHA256 returns the SHA-256 checksum of the file, in hexadecimal.
func (s *File) SHA256() string { return hex.EncodeToString(s.sum[:]) }

// Path returns the path the file was opened from.
func (s *File) Path() string { return s.path }

// Records returns the number of records in the file.
func (s *File) Records() int64 { return s.records }

// Episodes returns the number of episodes in one pass over the file (the
// last one ended by the wrap).
func (s *File) Episodes() int64 { return s.episodes }

// ReadingLength returns the number of values of every sensor reading: 256 or 275.
func (s *File) ReadingLength() int { return s.readingLen }

// Name and Policy return the file's enviroment_name and policy_type.
func (s *File) Name() string   { return s.name }
func (s *File) Policy() string { return s.policy }

// ObservationSize returns Inputs (275).
func (s *File) ObservationSize() int { return Inputs }

// Next writes the observation of the next record into dst and returns its
// cumulant and return. It panics if len(dst) != Inputs, or if the file can no
// longer be read as Open read it (it changed during the run). It does not
// allocate.
func (s *File) Next(dst []float64) (cumulant, ret float64) {
	if len(dst) != Inputs {
		panic(fmt.Sprintf("atari: observation length %d, want %d", len(dst), Inputs))
	}
	if s.t == s.records {
		if err := s.rewind(); err != nil {
			panic(fmt.Sprintf("atari: rewind %s: %v", s.path, err))
		}
	}
	err := s.dec.Next(&s.exp)
	if err == nil && len(s.exp.Reading) != s.readingLen {
		err = errors.New("reading length changed")
	}
	if err != nil {
		panic(fmt.Sprintf("atari: %s changed while in use: record %d: %v", s.path, s.t, err))
	}
	s.exp.Observe(dst)
	ret = s.returns[s.t]
	s.done = s.exp.Done || s.t == s.records-1
	s.t++
	return ClipReward(float64(s.exp.Reward)), ret
}

// Done reports whether the latest record ended an episode.
func (s *File) Done() bool { return s.done }

// Close closes the file.
func (s *File) Close() error {
	if c, ok := s.f.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
