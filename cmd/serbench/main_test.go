package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/serbench/serbench/planted"
	"github.com/serbench/serbench/registry"
)

func TestMain(m *testing.M) {
	// Scripts that set SERBENCH_PLANTED=1 see the planted faults beside
	// the real codecs, in the command and in its worker processes alike.
	if os.Getenv("SERBENCH_PLANTED") == "1" {
		registry.Codecs = append(append(registry.Codecs, planted.Codecs...), planted.Workers...)
	}
	testscript.Main(m, map[string]func(){"serbench": main})
}

// TestScripts runs the command as a user would: testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
