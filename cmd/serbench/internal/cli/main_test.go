package cli

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/serbench/serbench/worker"
)

// TestMain makes the test binary serbench's worker when a worker.Pool
// starts it as one: the tests that load a -file document decode it in a
// worker, as the command does.
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == worker.CommandName {
		if err := Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
