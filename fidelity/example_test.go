package fidelity_test

import (
	"fmt"

	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
)

// Check runs one probe through one codec in this process.
func ExampleCheck() {
	json, _ := registry.Lookup("json")
	gob, _ := registry.Lookup("gob")
	probes, _ := fidelity.Lookup([]string{"nan", "slice-empty", "map-int-key"})
	for _, p := range probes {
		j, g := fidelity.Check(json, p), fidelity.Check(gob, p)
		fmt.Printf("%-12s json: %-60s gob: %s\n", p.Name, fidelity.Study.Text(&j), fidelity.Study.Text(&g))
	}
	// Output:
	// slice-empty  json: exact                                                        gob: equal after a normalisation (nil≡empty)
	// map-int-key  json: exact                                                        gob: exact
	// nan          json: refused at encode: json: unsupported value: NaN              gob: exact
}
