package registry

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/serbench/serbench/planted/registryinit"
)

// TestIntactBeforeBuilt: a package the registry imports (here in its
// tests: planted/registryinit) whose init rewrites a rival's entry runs
// before the registry is built, so the registry's snapshot holds the
// rewritten entry; Intact refuses it all the same, by the rival's own
// declaration. The rewrite happens in a child process of this test
// binary, with the planted package's switch set, so that this process
// keeps an honest registry.
func TestIntactBeforeBuilt(t *testing.T) {
	if os.Getenv(registryinit.Env) == "1" {
		// The child: the snapshot agrees with Codecs, the declaration
		// does not.
		for i, b := range built {
			if err := b.same(Codecs[i]); err != nil {
				t.Fatalf("the snapshot already differs: %v", err)
			}
		}
		err := Intact()
		if err == nil {
			t.Fatal("Intact: nil with json's New rewritten before the registry was built")
		}
		os.Stdout.WriteString("INTACT: " + err.Error() + "\n")
		return
	}
	if err := Intact(); err != nil {
		t.Fatalf("the registry as built: %v", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestIntactBeforeBuilt$", "-test.count=1")
	cmd.Env = append(os.Environ(), registryinit.Env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v\n%s", err, out)
	}
	for _, want := range []string{
		"INTACT: codec json's registry entry is not the one its adapter's package declared " +
			"(its New is now github.com/serbench/serbench/planted/registryinit.init.",
		", not github.com/serbench/serbench/codecs/json.",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child's Intact:\n%s\nwant %q in it", out, want)
		}
	}
	t.Logf("%s", out)
}
