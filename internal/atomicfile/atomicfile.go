// Package atomicfile writes files so that a reader sees either no file (or
// the previous one) or the whole new one, never a part: the data go to a
// temporary file in the same directory, which is synced, given its
// permissions, closed and renamed over the target. Temporary files are named
// ".NAME.*.tmp", so a directory listing never mistakes one for a result.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// File is a temporary file that becomes path when committed.
type File struct {
	*os.File
	path string
	perm os.FileMode
}

// Create starts writing path: the returned File is a temporary file next to
// it. Call Commit to put it in place or Abort to discard it.
func Create(path string, perm os.FileMode) (*File, error) {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path, perm: perm}, nil
}

// Commit syncs and closes the temporary file and renames it to the target
// path. On error the temporary file is removed.
func (f *File) Commit() error {
	err := f.Sync()
	if err == nil {
		err = f.Chmod(f.perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Abort closes and removes the temporary file; the target is untouched.
func (f *File) Abort() {
	f.Close()
	os.Remove(f.Name())
}

// Write writes what write produces to path atomically. A path that exists
// and is not a regular file (/dev/null, a named pipe) is written in place:
// a rename would replace the device or pipe itself.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// WriteFile writes data to path atomically (see Write).
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
