// Package tbloop times a prepared codec case under testing.B exactly as
// the runner times it: a plain loop of b.N calls through the codec.Case
// interface (b.Loop would add its own bookkeeping to every call, about
// 1.4ns, which would count against nanosecond-scale operations), the last
// encoding kept alive, decodes alternating the two messages, and the
// runner's checks once the timer is stopped.
package tbloop

import (
	"runtime"
	"testing"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// Op times op on p and reports allocations and the encoded size (B/msg).
// A check after timing that fails is b.Error.
func Op(b *testing.B, p *runner.Prepared, op results.Op) {
	b.ReportAllocs()
	b.ResetTimer()
	switch op {
	case results.Encode:
		var last []byte
		for range b.N {
			enc, err := p.Case.Encode()
			if err != nil {
				b.Fatal(err)
			}
			last = enc
		}
		b.StopTimer()
		runtime.KeepAlive(last)
		if err := p.CheckEncoding(last); err != nil {
			b.Errorf("after timing: %v", err)
		}
	case results.Decode:
		for i := range b.N {
			if err := p.Case.Decode(p.Msgs[i&1]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if err := p.CheckDecoded((b.N - 1) & 1); err != nil {
			b.Errorf("after timing: %v", err)
		}
	default:
		b.Fatalf("unknown op %q", op)
	}
	b.ReportMetric(float64(len(p.Msgs[0])), "B/msg")
}
