package worker

// oomEvidence is what the kernel shows of out-of-memory kills over a
// child's life: whether a counter went up, and which counters were read.
type oomEvidence struct {
	oom    bool
	source string // "/proc/vmstat and the memory cgroup", "" when none is readable
}

// oomCounters is a snapshot of the kernel's out-of-memory kill counters
// this process can read, by file.
type oomCounters map[string]uint64

// since compares a later snapshot with c.
func (c oomCounters) since(later oomCounters) oomEvidence {
	var ev oomEvidence
	for file, n := range c {
		m, ok := later[file]
		if !ok {
			continue
		}
		if ev.source == "" {
			ev.source = file
		} else {
			ev.source = "the kernel's counters"
		}
		if m > n {
			ev.oom, ev.source = true, file
			return ev
		}
	}
	return ev
}
