package hostile

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/serbench/serbench/registry"
)

func TestKnownCrashers(t *testing.T) {
	fsys := fstest.MapFS{
		"crashers/README.md":      {Data: []byte("# not a codec's\n")},
		"crashers/a/raw.bin":      {Data: []byte{0xdf, 0xff, 0xff}},
		"crashers/a/go-fuzz":      {Data: []byte("go test fuzz v1\n[]byte(\"\\x01\\x02\")\n")},
		"crashers/a/.hidden":      {Data: []byte("skipped")},
		"crashers/bad/broken":     {Data: []byte("go test fuzz v1\nint(3)\n")},
		"crashers/empty/.gitkeep": {Data: nil},
	}
	tests := []struct {
		codec   string
		want    []External
		wantErr string
	}{
		{codec: "a", want: []External{
			{Name: "crashers/a/go-fuzz", Data: []byte{1, 2}},
			{Name: "crashers/a/raw.bin", Data: []byte{0xdf, 0xff, 0xff}},
		}},
		{codec: "none"},
		{codec: "empty"},
		{codec: "bad", wantErr: "crashers/bad/broken: not one []byte value"},
	}
	for _, tt := range tests {
		got, err := knownCrashers(fsys, tt.codec)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: err = %v, want %q", tt.codec, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.codec, err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %d crashers, want %d: %+v", tt.codec, len(got), len(tt.want), got)
		}
		for i := range got {
			if got[i].Name != tt.want[i].Name || string(got[i].Data) != string(tt.want[i].Data) {
				t.Errorf("%s: crasher %d = %q %x, want %q %x", tt.codec, i, got[i].Name, got[i].Data, tt.want[i].Name, tt.want[i].Data)
			}
		}
	}
}

func TestJoinCrashers(t *testing.T) {
	known := []External{{Name: "crashers/x/a", Data: []byte("a")}}
	found := []External{{Name: "fuzz/1", Data: []byte("a")}, {Name: "fuzz/2", Data: []byte("b")}}
	got := joinCrashers(known, found)
	if len(got) != 2 || got[0].Name != "crashers/x/a" || got[1].Name != "fuzz/2" {
		t.Errorf("joinCrashers = %+v, want the known one and fuzz/2", got)
	}
}

// TestCrashersInTree checks that each directory of crashers names a codec
// and that each of its files reads.
func TestCrashersInTree(t *testing.T) {
	entries, err := fs.ReadDir(crasherFiles, "crashers")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := registry.Lookup(e.Name()); err != nil {
			t.Errorf("hostile/crashers/%s: %v", e.Name(), err)
			continue
		}
		got, err := KnownCrashers(e.Name())
		if err != nil {
			t.Error(err)
		}
		if len(got) == 0 {
			t.Errorf("hostile/crashers/%s holds no crasher", e.Name())
		}
	}
}
