package harnessbench

import (
	"testing"

	"github.com/serbench/serbench/results"
)

func BenchmarkEncode(b *testing.B) { benchOp(b, results.Encode) }
func BenchmarkDecode(b *testing.B) { benchOp(b, results.Decode) }

func benchOp(b *testing.B, op results.Op) {
	cs, err := Cases()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range cs {
		b.Run(c.Name, Bench(c, op))
	}
}

// TestCases checks that the harness preset yields cases for both
// harnesses to time, each verified by the runner's round trip.
func TestCases(t *testing.T) {
	cs, err := Cases()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 28 {
		t.Fatalf("%d harness cases, want the preset's 28", len(cs))
	}
	for _, c := range cs {
		if len(c.Prep.Msgs[0]) == 0 || len(c.Prep.Msgs[1]) == 0 {
			t.Errorf("%s: empty encoding", c.Name)
		}
	}
}
