package hostile

import (
	"bytes"
	"os"
	"strconv"
)

// resetPeakRSS resets this process's peak resident set size (VmHWM), so
// that the next peakRSS is the peak since now.
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// rss returns this process's resident set size and its peak, in bytes; 0
// when /proc does not say.
func rss() (cur, peak uint64) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		n, _ := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))), 10, 64)
		switch string(k) {
		case "VmRSS":
			cur = n << 10
		case "VmHWM":
			peak = n << 10
		}
	}
	return cur, peak
}
