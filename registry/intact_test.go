package registry_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/registry"
)

// TestIntact: an entry rewritten after the registry was built (its New,
// its declared data, its place) or a name registered twice is refused by
// Intact and by Lookup, naming the codec and what changed; an entry
// appended (a test's planted codec) is not a rewrite.
func TestIntact(t *testing.T) {
	saved := slices.Clone(registry.Codecs)
	t.Cleanup(func() { registry.Codecs = saved })
	if err := registry.Intact(); err != nil {
		t.Fatalf("the registry as built: %v", err)
	}
	i := slices.IndexFunc(saved, func(c codec.Info) bool { return c.Name == "json" })
	other := saved[(i+1)%len(saved)]
	slow := func() codec.Codec { return nil }
	for _, tc := range []struct {
		name   string
		change func([]codec.Info) []codec.Info
		want   string // "" when intact
	}{
		{"New replaced", func(cs []codec.Info) []codec.Info { cs[i].New = slow; return cs },
			"codec json's registry entry was rewritten after the registry was built (its New is now github.com/serbench/serbench/registry_test.TestIntact.func"},
		{"losses declared", func(cs []codec.Info) []codec.Info {
			cs[i].Losses = append(cs[i].Losses, codec.Loss{Kind: codec.NilEmpty})
			return cs
		},
			"codec json's registry entry was rewritten after the registry was built (its declared data"},
		{"unsupported declared", func(cs []codec.Info) []codec.Info { cs[i].Unsupported = codec.Map; return cs }, "its declared data"},
		{"replaced by a rival", func(cs []codec.Info) []codec.Info { cs[i] = other; return cs }, "its place now holds codec " + other.Name},
		{"removed", func(cs []codec.Info) []codec.Info { return cs[:len(cs)-1] }, "lost 1 of its"},
		{"registered twice", func(cs []codec.Info) []codec.Info { return append(cs, cs[i]) }, "codec json is registered twice"},
		{"a new codec appended", func(cs []codec.Info) []codec.Info {
			c := cs[i]
			c.Name = "json-planted"
			return append(cs, c)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			registry.Codecs = tc.change(slices.Clone(saved))
			defer func() { registry.Codecs = saved }()
			err := registry.Intact()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Intact: %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Intact: %v, want %q in it", err, tc.want)
			}
			if tc.want != "" && strings.Contains(tc.want, "json's") {
				if _, err := registry.Lookup("json"); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Lookup(json): %v, want %q in it", err, tc.want)
				}
			}
		})
	}
}
