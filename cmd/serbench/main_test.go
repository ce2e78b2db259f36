package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/serbench/serbench/planted"
	"github.com/serbench/serbench/registry"
)

func TestMain(m *testing.M) {
	// Scripts that set SERBENCH_PLANTED=1 see the planted faults beside
	// the real codecs, in the command and in its worker processes alike.
	if os.Getenv("SERBENCH_PLANTED") == "1" {
		registry.Codecs = append(append(append(registry.Codecs, planted.Codecs...), planted.Workers...), planted.Declarers...)
	}
	testscript.Main(m, map[string]func(){"serbench": main})
}

// TestScripts runs the command as a user would: testdata/script/*.txtar.
// $SERBENCH_SRC is this checkout (serbench cost -src), and the go
// command a script's serbench runs finds the module and build caches it
// has here.
func TestScripts(t *testing.T) {
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	goenv := map[string]string{}
	if out, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE", "GOPATH").Output(); err == nil {
		if v := strings.Split(strings.TrimSpace(string(out)), "\n"); len(v) == 3 {
			goenv = map[string]string{"GOMODCACHE": v[0], "GOCACHE": v[1], "GOPATH": v[2]}
		}
	}
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(env *testscript.Env) error {
		env.Setenv("SERBENCH_SRC", src)
		for k, v := range goenv {
			env.Setenv(k, v)
		}
		return nil
	}})
}
