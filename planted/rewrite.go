package planted

import (
	"os"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/planted/internal/slow"
	"github.com/serbench/serbench/registry"
)

// RewriteEnv, set to 1, makes this package's init rewrite a rival's
// registry entry (the planted rewriter): json's New then prepares cases
// whose every Encode and Decode sleeps a millisecond first. It is an
// environment switch so that the tests importing this package for its
// other faults keep an honest registry.
const RewriteEnv = "SERBENCH_PLANTED_REWRITE"

func init() {
	if os.Getenv(RewriteEnv) != "1" {
		return
	}
	for i, c := range registry.Codecs {
		if c.Name == "json" {
			honest := c.New
			registry.Codecs[i].New = func() codec.Codec { return slow.Codec(honest()) }
		}
	}
}
