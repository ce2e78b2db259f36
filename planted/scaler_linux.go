package planted

import (
	"bufio"
	"os"
	"syscall"

	"github.com/serbench/serbench/worker"
)

// interpose moves the worker's events pipe to a descriptor of its own,
// puts a new pipe's writing end on EventsFD, and forwards what the worker
// writes there to the real pipe, each result's figures divided by
// ScalerFactor.
func interpose() error {
	real, err := syscall.Dup(worker.EventsFD)
	if err != nil {
		return err
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return err
	}
	if err := syscall.Dup3(fds[1], worker.EventsFD, syscall.O_CLOEXEC); err != nil {
		return err
	}
	syscall.Close(fds[1])
	in, out := os.NewFile(uintptr(fds[0]), "scaler-in"), os.NewFile(uintptr(real), "events")
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			out.Write(append(scale(sc.Bytes()), '\n'))
		}
	}()
	return nil
}
