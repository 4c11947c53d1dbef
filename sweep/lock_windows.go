//go:build windows

package sweep

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// runLock is an exclusive lock (LockFileEx) on the first byte of
// DIR/locks/ID: Windows releases it when the holder's handle closes, also
// when the process is killed, as flock is released on Unix. Lock files are
// never removed (see lock_unix.go).
type runLock struct{ f *os.File }

// tryLock takes the lock of run id without waiting; errBusy if another
// process (or another open in this one) holds it.
func tryLock(out, id string) (*runLock, error) {
	path := filepath.Join(out, LocksDir, id)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	var ol windows.Overlapped
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, errBusy
		}
		return nil, err
	}
	return &runLock{f}, nil
}

func (l *runLock) unlock() {
	var ol windows.Overlapped
	windows.UnlockFileEx(windows.Handle(l.f.Fd()), 0, 1, 0, &ol)
	l.f.Close()
}
