package runner

import (
	"testing"
	"time"
)

var allocSink []byte

// spinAlloc returns a loop whose every call allocates size bytes and
// works for about d.
func spinAlloc(size int, d time.Duration) loop {
	return func(n int) error {
		for range n {
			allocSink = make([]byte, size)
			for start := time.Now(); time.Since(start) < d; {
			}
		}
		return nil
	}
}

// TestSampleEndsOnACollection checks where a sample ends: an operation
// that allocates a collection's worth more slowly than SampleTime but
// within maxStretch of it runs on until a collection has ended, so every
// sample pays for one; one that allocates too slowly for that, or not at
// all, ends at SampleTime; and with NoGC no sample stretches.
func TestSampleEndsOnACollection(t *testing.T) {
	const sampleTime = 4 * time.Millisecond
	tests := []struct {
		name    string
		noGC    bool
		op      loop
		wantGCs bool          // every sample holds a collection
		maxLen  time.Duration // no sample's timed work is longer
	}{
		// 4 KiB per 10µs: a 4 MiB heap goal is reached in about 10ms.
		{name: "allocating", op: spinAlloc(4<<10, 10*time.Microsecond), wantGCs: true, maxLen: maxStretch * sampleTime},
		// 4 KiB per 200µs: about 200ms to a collection, beyond the stretch.
		{name: "slow allocating", op: spinAlloc(4<<10, 200*time.Microsecond), maxLen: 2 * sampleTime},
		{name: "not allocating", op: spinAlloc(0, 10*time.Microsecond), maxLen: 2 * sampleTime},
		{name: "allocating, NoGC", noGC: true, op: spinAlloc(4<<10, 10*time.Microsecond), maxLen: 2 * sampleTime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := New(Options{SampleTime: sampleTime, BatchTime: 100 * time.Microsecond, NoGC: tt.noGC})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				s, elapsed, err := r.timeSample(tt.op, 1)
				if err != nil {
					t.Fatal(err)
				}
				if tt.wantGCs && s.GCs < 1 {
					t.Errorf("sample %d: %v of work, %d collections; want it to run on to one", i, elapsed, s.GCs)
				}
				if elapsed < sampleTime || elapsed > tt.maxLen {
					t.Errorf("sample %d: %v of work; want %v to %v", i, elapsed, sampleTime, tt.maxLen)
				}
			}
		})
	}
}
