// Package schema holds serbench's datasets as Cap'n Proto structs
// (serbench.capnp) and the Go code capnpc-go generates from them.
//
// Regenerate with `go generate ./...` from the module root. capnp comes from
// Debian's capnproto (scripts/ensure-compilers installs it); capnpc-go and
// the go.capnp schema it needs are those of the capnproto.org/go/capnp/v3
// version pinned in go.mod, capnpc-go as a tool built by `go tool -n`.
package schema

//go:generate ../../../scripts/ensure-compilers
//go:generate sh -c "go mod download capnproto.org/go/capnp/v3 && capnp compile -I$(go list -m -f {{.Dir}} capnproto.org/go/capnp/v3)/std -o$(go tool -n capnpc-go):. serbench.capnp"

import _ "embed" // Text

// Text is serbench.capnp, which serbench interop reads for its structs
// and its Python peer loads.
//
//go:embed serbench.capnp
var Text string
