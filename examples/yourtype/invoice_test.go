package yourtype

import (
	"testing"

	"github.com/serbench/serbench"
)

func BenchmarkInvoice(b *testing.B) {
	serbench.Benchmark(b, Sample())
}
