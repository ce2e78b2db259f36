package fuzzing

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/worker"
)

// FuzzDecode decodes its input with one codec, the one hostile.FuzzEnv
// names, as the hostile matrix's fuzz class does (into a map[string]any
// where the codec can, else its default seed's type), under the matrix's
// stack cap; a panic or a fatal error is a crasher. Its seeds are the
// codec's own encodings of the datasets. Without hostile.FuzzEnv (go
// test ./...) it runs every codec's seeds, each prefixed by the codec's
// index, through that codec.
func FuzzDecode(f *testing.F) {
	codecs := registry.RoundTrippers()
	name := os.Getenv(hostile.FuzzEnv)
	if name != "" {
		info, err := registry.Lookup(name)
		if err != nil {
			f.Fatal(err)
		}
		debug.SetMaxStack(worker.DefaultLimits.Stack)
		decode := hostile.FuzzDecoder(info)
		if decode == nil {
			f.Skipf("%s decodes no seed value", name)
		}
		for _, s := range hostile.FuzzSeeds(info) {
			f.Add(s)
		}
		f.Fuzz(func(t *testing.T, data []byte) { decode(data) })
		return
	}
	decoders := make([]func([]byte) error, len(codecs))
	for i, info := range codecs {
		decoders[i] = hostile.FuzzDecoder(info)
		for _, s := range hostile.FuzzSeeds(info)[:1] {
			f.Add(append([]byte{byte(i)}, s...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || int(data[0]) >= len(decoders) || decoders[data[0]] == nil {
			return
		}
		decoders[data[0]](data[1:])
	})
}
