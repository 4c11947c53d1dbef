package truncation

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteFileAtomic: writeFile replaces the target whole and leaves no
// temporary file; a failing writer leaves the previous content in place.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/" + BiasCSV
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	err := writeFile(path, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk full")
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "truncation: write "+path)
	b, _ := os.ReadFile(path)
	assert.Equal(t, "old\n", string(b), "a failed write leaves the previous file")

	require.NoError(t, writeFile(path, func(w io.Writer) error { return WriteBiasCSV(w, nil) }))
	b, _ = os.ReadFile(path)
	assert.Equal(t, biasHead, string(b))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file left")
}
