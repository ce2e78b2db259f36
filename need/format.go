package need

// A Format is what a family's encoding is, as its specification says:
// facts about the format, not about a library.
type Format struct {
	// Text says an encoding is text a person can read and edit.
	Text bool
	// Names says an encoding carries its fields' names (or its type
	// descriptors), so a reader needs no schema shared with the writer;
	// without it fields go by position or number, from a schema or the Go
	// type both ends share.
	Names bool
}

// formats holds the Format of every codec family; a test fails for a
// registered family missing here.
var formats = map[string]Format{
	"asn1":        {},
	"avro":        {},
	"bebop":       {},
	"benc":        {},
	"binary":      {},
	"binc":        {Names: true},
	"bson":        {Names: true},
	"capnp":       {},
	"cbor":        {Names: true},
	"flatbuffers": {},
	"gob":         {Names: true},
	"json":        {Text: true, Names: true},
	"kelindar":    {},
	"msgpack":     {Names: true},
	"mus":         {},
	"protobuf":    {},
	"ssz":         {},
	"text":        {Text: true},
	"thrift":      {},
	"toml":        {Text: true, Names: true},
	"xdr":         {},
	"xml":         {Text: true, Names: true},
	"yaml":        {Text: true, Names: true},
}

// byPosition names the codecs whose library writes a Names family by
// position (a struct as an array): their encodings carry no field names.
var byPosition = map[string]bool{
	"shamaton-msgpack-array": true,
}

// FormatOf returns the Format of a codec of family, and whether the
// family is known.
func FormatOf(name, family string) (Format, bool) {
	f, ok := formats[family]
	if byPosition[name] {
		f.Names = false
	}
	return f, ok
}
