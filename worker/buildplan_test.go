package worker

import "testing"

// TestBuildPlan reads go list's listing of the stale packages: a line per
// package, its directory then its files, each file sized; a file the
// overlay adds (not on disk) counts nothing.
func TestBuildPlan(t *testing.T) {
	sizes := map[string]int64{"/r/a.go": 100, "/r/b.s": 20, "/m/c.go": 3}
	listing := "/r\ta.go\tb.s\tadded.go\n/m\tc.go\n"
	got := buildPlan(listing, func(p string) int64 { return sizes[p] })
	if want := (BuildPlan{Packages: 2, Bytes: 123}); got != want {
		t.Errorf("buildPlan = %+v, want %+v", got, want)
	}
	if got := buildPlan("", nil); got != (BuildPlan{}) {
		t.Errorf("buildPlan of nothing stale = %+v, want none", got)
	}
}
