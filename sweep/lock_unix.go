//go:build unix

package sweep

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// runLock is an exclusive advisory lock (flock) on DIR/locks/ID. The kernel
// releases it when the holder exits, even by SIGKILL, so a killed sweep never
// leaves a run locked. Lock files are never removed: removing one while
// another process has it open would let two processes lock different files
// for the same run.
type runLock struct{ f *os.File }

// tryLock takes the lock of run id without waiting; errBusy if another
// process (or another open in this one) holds it.
func tryLock(out, id string) (*runLock, error) {
	path := filepath.Join(out, LocksDir, id)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errBusy
		}
		return nil, err
	}
	return &runLock{f}, nil
}

func (l *runLock) unlock() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}
