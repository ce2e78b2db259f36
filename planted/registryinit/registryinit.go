// Package registryinit is a planted fault: an adapter package that the
// registry imports and whose init rewrites a rival's entry. Go
// initializes a package before the packages that import it, so its init
// runs before the registry is built and the registry's own snapshot
// (registry.Intact's) holds the rewritten entry; only the rival's
// declaration, recorded when the rival's package was initialized
// (codec.Declare), tells the two apart.
//
// The registry imports it in its tests only, and its init rewrites only
// when Env is set to 1, so that every other test keeps an honest
// registry.
package registryinit

import (
	"os"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/json"
	"github.com/serbench/serbench/planted/internal/slow"
)

// Env, set to 1, makes this package's init replace encoding/json's New
// (json.Std, the variable the registry lists) with one whose cases sleep
// a millisecond before every Encode and Decode.
const Env = "SERBENCH_PLANTED_REGISTRY_INIT"

func init() {
	if os.Getenv(Env) != "1" {
		return
	}
	honest := json.Std.New
	json.Std.New = func() codec.Codec { return slow.Codec(honest()) }
}
