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
// that another open file holds it. The kernel releases the lock when f is
// closed or its process ends, however it ends.
func lockFile(f *os.File) (held bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
