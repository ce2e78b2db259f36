// Command serbench benchmarks Go serialization codecs over many payload
// shapes, verifying every round trip before timing it.
//
// Run `serbench help` for usage.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/serbench/serbench/cmd/serbench/internal/cli"
)

func main() {
	// Interrupted (^C) or terminated (timeout, a CI cancel), a run stops
	// sampling and writes what it measured.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "serbench:", cli.Localize(err.Error()))
		code := cli.ExitCode(err)
		if code > 1 && cli.GoRun(os.Args[0]) {
			// go run reports every failure as exit status 1.
			fmt.Fprintf(os.Stderr, "serbench: exit status %d; go run turns it into 1: for scripts, build the command (go build -o serbench ./cmd/serbench) and run ./serbench\n", code)
		}
		os.Exit(code)
	}
}
