package planted

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

// limitAddressSpace caps the helper's address space at 256 GiB where the
// kernel always overcommits (vm.overcommit_memory=1): there the 1 TiB
// mapping would succeed and touching it would run the whole machine out
// of memory. With the cap the mapping fails as it does under the default
// heuristic overcommit, and the runtime reports "out of memory".
func limitAddressSpace(t *testing.T) {
	mode, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	if err != nil || strings.TrimSpace(string(mode)) != "1" {
		return
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur > 256<<30 {
		lim.Cur = 256 << 30
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			t.Fatal(err)
		}
	}
}
