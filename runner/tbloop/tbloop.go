// Package tbloop times a prepared codec case under testing.B exactly as
// the runner times it: a plain loop of b.N calls through the codec.Case
// interface (b.Loop would add its own bookkeeping to every call, about
// 1.4ns, which would count against nanosecond-scale operations) over the
// pool of builds in a shuffled order, the last encoding kept alive, and
// the runner's checks once the timer is stopped.
package tbloop

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Op times op on p and reports allocations and the encoded size (B/msg).
// A check after timing that fails is b.Error.
func Op(b *testing.B, p *runner.Prepared, op results.Op) {
	order := rand.Perm(len(p.Msgs)) // the runner draws one per sample
	b.ReportAllocs()
	b.ResetTimer()
	j, k := 0, 0
	switch op {
	case results.Encode:
		var last []byte
		for range b.N {
			k = order[j]
			enc, err := p.Cases[k].Encode()
			if err != nil {
				b.Fatal(err)
			}
			last = enc
			if j++; j == len(order) {
				j = 0
			}
		}
		b.StopTimer()
		runtime.KeepAlive(last)
		if err := p.CheckEncoding(k, last); err != nil {
			b.Errorf("after timing: %v", err)
		}
	case results.Decode:
		for range b.N {
			k = order[j]
			if err := p.Case.Decode(p.Msgs[k]); err != nil {
				b.Fatal(err)
			}
			if j++; j == len(order) {
				j = 0
			}
		}
		b.StopTimer()
		if err := p.CheckDecoded(k); err != nil {
			b.Errorf("after timing: %v", err)
		}
	default:
		b.Fatalf("unknown op %q", op)
	}
	b.ReportMetric(float64(len(p.Msgs[0])), "B/msg")
}
