//go:build !linux

package hostile

// resetPeakRSS does nothing where serbench cannot reset the peak.
func resetPeakRSS() {}

// rss returns 0: serbench reads the resident set size from Linux's /proc.
func rss() (cur, peak uint64) { return 0, 0 }
