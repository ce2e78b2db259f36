package registry_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/registry"
)

// TestCodecs checks the registry is well formed: valid entries and unique
// names. (Test binaries carry no module versions; the CLI scripts check
// that the real command reports one for every codec.)
func TestCodecs(t *testing.T) {
	if n := len(registry.Codecs); n < 25 {
		t.Errorf("%d codec variants registered, want at least 25", n)
	}
	seen := map[string]bool{}
	for _, c := range registry.Codecs {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if seen[c.Name] {
			t.Errorf("codec name %q registered twice", c.Name)
		}
		seen[c.Name] = true
		if c.Module == "" || c.URL == "" || c.Label == "" {
			t.Errorf("%s: Module, URL and Label are required", c.Name)
		}
	}
	if _, err := registry.Lookup("jsn"); err == nil || !strings.Contains(err.Error(), `unknown codec "jsn" (did you mean json?); run 'serbench list codecs' to see all`) {
		t.Errorf("Lookup of an unknown name = %v", err)
	}
}

// TestCheck checks that every unknown codec is named at once, each with
// the registered names closest to it: by spelling, or by family.
func TestCheck(t *testing.T) {
	if err := registry.Check([]string{"json", "gob"}); err != nil {
		t.Errorf("Check of registered names = %v", err)
	}
	err := registry.Check([]string{"json", "protobuf", "msgpck", "zzz"})
	want := `unknown codecs "protobuf" (did you mean proto, vtproto or vtproto-pool?), "msgpck" (did you mean msgpack or msgp?)`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), `, "zzz"; run 'serbench list codecs'`) {
		t.Errorf("Check = %v, want it to begin %s", err, want)
	}
}
