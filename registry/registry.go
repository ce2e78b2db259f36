// Package registry is the one explicit list of the codecs serbench knows.
// Names on the command line and in results come from here alone.
package registry

import (
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/asn1"
	"github.com/serbench/serbench/codecs/binary"
	"github.com/serbench/serbench/codecs/byteorder"
	"github.com/serbench/serbench/codecs/gob"
	"github.com/serbench/serbench/codecs/json"
	"github.com/serbench/serbench/codecs/seed004"
	"github.com/serbench/serbench/codecs/strconv"
	"github.com/serbench/serbench/codecs/xml"
	"github.com/serbench/serbench/codecs/yaml"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/internal/suggest"
)

// Codecs lists every registered codec variant, in display order: the
// standard library and the seed codecs, then the other reflection-based
// libraries, then the schema-compiled ones, then the in-place readers.
// Each part is one explicit list in this package.
var Codecs = slices.Concat(seed, reflection, schema, readers)

// seed lists the codecs the seed articles measured and the standard
// library's other encoder (encoding/asn1), then seed 004's functions as
// the article wrote them.
var seed = slices.Concat([]codec.Info{
	gob.OneShot,
	gob.Stream,
	json.Std,
	xml.Std,
	yaml.V4,
	binary.Std,
	byteorder.Manual,
	strconv.Text,
	asn1.Std,
}, seed004.Codecs)

// Lookup returns the codec named name, as the registry was built with it.
func Lookup(name string) (codec.Info, error) {
	for i, c := range Codecs {
		if c.Name == name {
			if i < len(built) {
				// An entry rewritten after the registry was built is
				// refused, not measured (Intact).
				if err := built[i].same(c); err != nil {
					return codec.Info{}, err
				}
			}
			return c, nil
		}
	}
	return codec.Info{}, Check([]string{name})
}

// Check returns an error naming every one of names that is not a
// registered codec, each with the closest registered names (by spelling,
// and by family or label: "protobuf" suggests proto), or nil if all are
// registered.
func Check(names []string) error {
	aliases := suggest.Aliases{}
	for _, c := range Codecs {
		aliases.Add(c.Family, c.Name)
		aliases.Add(c.Label, c.Name)
	}
	return suggest.Check("codec", names, Names(), aliases, "serbench list codecs")
}

// Names returns the registered names in registry order.
func Names() []string {
	names := make([]string, len(Codecs))
	for i, c := range Codecs {
		names[i] = c.Name
	}
	return names
}

// Version returns the version of module as linked into this binary:
// the Go version for "std", "(devel)" or "unknown" when the build carries
// no module information (see buildinfo.Module).
func Version(module string) string { return buildinfo.Module(module) }
