package sweep

import (
	"errors"
	"os"
	"path/filepath"
)

// errBusy reports that another process holds a run's lock.
var errBusy = errors.New("sweep: run locked by another process")

// runLock is an exclusive lock on DIR/locks/ID, taken by the platform's
// lockFile (flock on Unix, LockFileEx on Windows). The operating system
// releases it when the holder exits, even by SIGKILL, so a killed sweep never
// leaves a run locked. Lock files are never removed: removing one while
// another process has it open would let two processes lock different files
// for the same run.
type runLock struct{ f *os.File }

// tryLock takes the lock of run id without waiting; errBusy if another
// process (or another open in this one) holds it.
func tryLock(out, id string) (*runLock, error) {
	f, err := os.OpenFile(filepath.Join(out, LocksDir, id), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return &runLock{f}, nil
}

func (l *runLock) unlock() {
	unlockFile(l.f)
	l.f.Close()
}
