package compare_test

import (
	"fmt"
	"strings"

	"github.com/serbench/serbench/compare"
)

// A gate reads two runs, compares them and fails on a regression beyond
// its threshold. Each side needs six samples or more: with fewer, the
// median has no 95% interval, and the gate flags nothing.
func ExampleGate() {
	old, _ := compare.Read(strings.NewReader(`BenchmarkEncode/codec=json 1000 100 ns/op
BenchmarkEncode/codec=json 1000 101 ns/op
BenchmarkEncode/codec=json 1000 99 ns/op
BenchmarkEncode/codec=json 1000 100 ns/op
BenchmarkEncode/codec=json 1000 102 ns/op
BenchmarkEncode/codec=json 1000 98 ns/op
`), "old.bench")
	new, _ := compare.Read(strings.NewReader(`BenchmarkEncode/codec=json 1000 140 ns/op
BenchmarkEncode/codec=json 1000 141 ns/op
BenchmarkEncode/codec=json 1000 139 ns/op
BenchmarkEncode/codec=json 1000 140 ns/op
BenchmarkEncode/codec=json 1000 142 ns/op
BenchmarkEncode/codec=json 1000 138 ns/op
`), "new.bench")
	rows, _ := compare.Compare(old, new)
	v := compare.Gate{Threshold: compare.DefaultThreshold}.Judge(rows)
	for _, r := range v.Regressions {
		fmt.Println(r.Name, r.Unit, r.Delta(), r.Cmp)
	}
	// Output: Encode/codec=json sec/op +40.00% p=0.002 n=6
}
