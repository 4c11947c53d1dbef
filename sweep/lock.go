package sweep

import "errors"

// errBusy reports that another process holds a run's lock (tryLock, one
// per platform: flock on Unix, LockFileEx on Windows).
var errBusy = errors.New("sweep: run locked by another process")
