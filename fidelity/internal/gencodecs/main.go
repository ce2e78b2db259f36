// Command gencodecs writes docs/codecs.md from the registry and the
// fidelity probes: go generate ./fidelity runs it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

func main() {
	out := flag.String("o", "docs/codecs.md", "the file to write")
	flag.Parse()
	fidelity.PinZone()
	var b bytes.Buffer
	if err := fidelity.WriteCodecs(&b, registry.Codecs); err != nil {
		fmt.Fprintln(os.Stderr, "gencodecs:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gencodecs:", err)
		os.Exit(1)
	}
}
