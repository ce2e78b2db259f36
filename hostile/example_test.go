package hostile_test

import (
	"fmt"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/registry"
)

// The long-array class turns a codec's own encoding of a seven-element
// slice into a slice that declares 2^32-1 elements: for MessagePack, an
// array32 header. Its first input stops one byte after the header.
func ExampleInputs() {
	info, _ := registry.Lookup("msgpack")
	seed, in := hostile.Inputs(info, "long-array", false)
	fmt.Println(seed)
	fmt.Printf("% x\n", in[0].Data)
	// Output:
	// user/slice
	// dd ff ff ff ff 83
}
