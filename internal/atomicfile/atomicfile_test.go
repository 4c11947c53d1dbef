package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	require.NoError(t, WriteFile(p, []byte("old"), 0o644))
	require.NoError(t, WriteFile(p, []byte("new contents"), 0o600))
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "new contents", string(b))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file left")
}

func TestFailedWriteLeavesTargetAlone(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	require.NoError(t, WriteFile(p, []byte("old"), 0o644))
	boom := errors.New("boom")
	err := Write(p, 0o644, func(w io.Writer) error {
		_, _ = w.Write([]byte("half"))
		return boom
	})
	assert.ErrorIs(t, err, boom)
	b, _ := os.ReadFile(p)
	assert.Equal(t, "old", string(b))
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "the temporary file is removed")
}

func TestCreateAbortAndCommit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "curve.csv")
	f, err := Create(p, 0o644)
	require.NoError(t, err)
	_, _ = f.WriteString("partial")
	_, err = os.Stat(p)
	assert.True(t, os.IsNotExist(err), "nothing at the target before Commit")
	f.Abort()
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries)

	f, err = Create(p, 0o644)
	require.NoError(t, err)
	_, _ = f.WriteString("step,error\n")
	require.NoError(t, f.Commit())
	b, _ := os.ReadFile(p)
	assert.Equal(t, "step,error\n", string(b))
}

func TestWriteToDeviceInPlace(t *testing.T) {
	require.NoError(t, WriteFile(os.DevNull, []byte("x"), 0o644))
	fi, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.False(t, fi.Mode().IsRegular(), "the device is still a device")
}
