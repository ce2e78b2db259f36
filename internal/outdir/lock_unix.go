//go:build unix

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// noFollow makes opening a symbolic link an error.
const noFollow = syscall.O_NOFOLLOW

// lockFile takes an exclusive lock on f without waiting; held reports
// that another open file holds it. A file system that has no locks leaves
// f unlocked, without an error. The kernel releases the lock when f is
// closed or its process ends, however it ends.
func lockFile(f *os.File) (held bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, nil
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
		// A file system without locks (some network ones): the directory
		// is written unlocked, as where the OS has no flock.
		return false, nil
	}
	return false, err
}
