package minatar

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"hash"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/ccn-go/ccn/env/atari"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/stream-digests.txt from the current build")

const digestFile = "testdata/stream-digests.txt"

// Each stream's digest is taken after each of these numbers of steps; short
// mode checks only the first.
var (
	digestSteps = []int{10_000, 200_000}
	digestSeeds = []uint64{1, 2, 3}
)

// streamDigests plays the stream of game for seed and returns the SHA-256
// digests, after each of digestSteps[:n] steps, of everything it produced:
// per step the 275 inputs, the cumulant and the return (as float64 bits),
// the Done flag, the action and the raw reward. Any change of an observation
// value, a cumulant, a return, a flag or of the random streams behind them
// changes the digests.
func streamDigests(t testing.TB, game string, seed uint64, n int) []string {
	s, err := New(game, seed, Config{})
	require.NoError(t, err)
	x := make([]float64, atari.Inputs)
	var h hash.Hash = sha256.New()
	buf := make([]byte, 0, 8*(atari.Inputs+4))
	var out []string
	for step := 1; len(out) < n; step++ {
		c, g := s.Next(x)
		buf = buf[:0]
		for _, v := range x {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(c))
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(g))
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(s.Reward()))
		done := byte(0)
		if s.Done() {
			done = 1
		}
		buf = append(buf, done, byte(s.Action()))
		h.Write(buf)
		if step == digestSteps[len(out)] {
			out = append(out, fmt.Sprintf("%x", h.Sum(nil)))
		}
	}
	return out
}

// TestStreamDigests: every game's stream, for seeds 1-3, is bit for bit the
// one recorded in testdata/stream-digests.txt (10,000 steps in short mode,
// 200,000 otherwise). The digests were written (go test -run
// TestStreamDigests -update) by the build whose screens were drawn in full
// and downscaled with atari.Downscale, so that a faster renderer must
// reproduce its streams exactly.
func TestStreamDigests(t *testing.T) {
	n := len(digestSteps)
	if testing.Short() && !*update {
		n = 1
	}
	var lines []string
	for _, g := range Games {
		for _, seed := range digestSeeds {
			for i, d := range streamDigests(t, g.Name, seed, n) {
				lines = append(lines, fmt.Sprintf("%s %d %d %s", g.Name, seed, digestSteps[i], d))
			}
		}
	}
	if *update {
		require.NoError(t, os.WriteFile(digestFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
		return
	}
	f, err := os.Open(digestFile)
	require.NoError(t, err)
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		require.Len(t, fields, 4, "%s: %q", digestFile, sc.Text())
		want[strings.Join(fields[:3], " ")] = fields[3]
	}
	require.NoError(t, sc.Err())
	require.Len(t, want, len(Games)*len(digestSeeds)*len(digestSteps))
	for _, l := range lines {
		fields := strings.Fields(l)
		key := strings.Join(fields[:3], " ")
		assert.Equal(t, want[key], fields[3], "%s: digest", key)
	}
}
