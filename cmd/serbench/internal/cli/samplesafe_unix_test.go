//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/serbench/serbench/worker"
)

// TestSampleRefusals checks that -file refuses, before reading it, what
// is not a document in a regular file of at most maxSampleBytes, naming
// the limit; and that a document whose decoding blows up costs the
// worker that decodes it, not serbench.
func TestSampleRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxSampleBytes + 1) // sparse: nothing written
	f.Close()
	mkdir(t, filepath.Join(dir, "dir.json"))
	bomb := filepath.Join(dir, "bomb.msgpack")
	writeFile(t, bomb, []byte{0xdf, 0xff, 0xff, 0xff, 0xff}) // a map32 header: four billion entries
	// A lower cap than the command's makes the bomb's death quicker.
	defer func(l worker.Limits) { sampleLimits = l }(sampleLimits)
	sampleLimits.Memory = 1 << 30
	for _, tc := range []struct{ path, want string }{
		{fifo, "fifo.json is a FIFO (named pipe), which serbench does not read"},
		{zero, "zero.json is a device, which serbench does not read"},
		{big, "big.json holds 67108865 bytes, above the limit of 67108864 (64 MiB) for a document"},
		{filepath.Join(dir, "dir.json"), "dir.json is a directory"},
		{bomb, "bomb.msgpack: decoding it killed the worker process that read it"},
	} {
		_, err := loadSample(tc.path)
		var u *UsageError
		if !asUsage(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("loadSample(%s) = %v; want a usage error saying %q", filepath.Base(tc.path), err, tc.want)
		}
	}
}

func asUsage(err error, u **UsageError) bool {
	e, ok := err.(*UsageError)
	*u = e
	return ok
}
