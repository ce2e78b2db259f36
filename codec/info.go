package codec

import (
	"fmt"
	"strings"
)

// An APIKind says how a codec learns the shape of the data.
type APIKind string

// The API kinds.
const (
	Reflection APIKind = "reflection" // any Go value, read through reflect
	Codegen    APIKind = "codegen"    // generated code from a schema or the Go types
	Schema     APIKind = "schema"     // a schema read at run time, no generated code
	Manual     APIKind = "manual"     // hand-written code for each type
)

// Info describes one registered codec variant. It is plain data: the
// registry is a list of Infos, and reports read them to flag comparisons
// that are not like for like.
type Info struct {
	// Name is the registry name used on the command line and in
	// benchmark names, e.g. "json" or "gob-stream". Lowercase, no spaces,
	// no '/' or '='.
	Name string

	// Family groups variants of one format: "json", "gob", "msgpack", ...
	Family string

	// Label is the display label, e.g. "encoding/json".
	Label string

	// Module is the Go module that implements the codec ("std" for the
	// standard library); its version is read from the build info.
	Module string

	// URL is the codec's home page.
	URL string

	API APIKind

	// Variant is empty for the idiomatic default usage; otherwise it says
	// how the variant departs from it ("encoder reused across messages").
	Variant string

	// Unsupported lists the features of a value's type that the codec
	// cannot represent; values whose type has one are skipped with the
	// reason.
	Unsupported Features

	// Losses lists what the codec is known not to preserve. Verification
	// compares the decoded value with the original modulo these losses.
	Losses []Loss

	// Omits names the datasets that a codec with a schema or generated
	// code leaves out on purpose, each with the reason: its Prepare
	// reports their values unsupported though they have none of the
	// Unsupported features. The registry's tests fail when such a codec
	// leaves out a dataset not listed here, or lists one it covers.
	Omits map[string]string

	// SelfTimed says the codec's cases run the timed loops themselves
	// (Looper): the runner calls a case's Looper methods only when set.
	SelfTimed bool

	// Lazy says Decode leaves work to Value (a lazy or zero-copy decoder
	// that only indexes its input, and builds the value when asked): the
	// runner then times Value with Decode, so that the decode figure
	// includes everything needed to hand back the value. A codec not
	// declared lazy whose Value costs more than its Decode is flagged.
	Lazy bool

	// ValueConverts says Value only converts a value Decode decoded in
	// full, from the codec's own types (generated mirror types) to the
	// type handed to Prepare: what it costs is the harness's conversion,
	// not decoding, and the runner does not flag a Value costing more
	// than Decode. Validate refuses it for an API of Reflection, which
	// has no types of its own to convert from. The runner checks it:
	// Decode must refuse an encoding cut short itself, or Value convert
	// what Decode accepted (see ValueReadsInput for the other check).
	ValueConverts bool

	// ValueReadsInput says Value reads the input the last Decode was
	// handed (the codec's native value points into it, and Value's
	// conversion copies out of it). The runner checks ValueConverts by
	// overwriting a decode's input between Decode and Value and
	// verifying Value's result, so that a decode cannot be left to
	// Value; it cannot check a codec that declares this, and so times
	// Value with Decode for it, as for a Lazy one.
	ValueReadsInput bool

	// Aliases says a decoded value may share memory with the input it was
	// decoded from (strings or byte slices pointing into it), so the input
	// must outlive the value. Without it, the runner overwrites a decode's
	// input after the decode and fails a value that changes with it.
	Aliases bool

	// ReusesTarget says a decoded value is valid only until the next
	// Decode of the same case (the case decodes into one target). Without
	// it, the runner fails a value that the next Decode changes.
	ReusesTarget bool

	// ReusesBuffer says Encode writes into a buffer kept across calls:
	// the encoding it returns is valid until the next Encode. The
	// registry's tests check it against what Encode does. A case that
	// converts its value when prepared is then a Reloader, so that the
	// runner can hold its later Encodes on values it never saw.
	ReusesBuffer bool

	// Stateful says a message is not self-contained: only the decoder
	// that read the messages before it in the same stream can read it (a
	// gob stream sends its type descriptors once, before its first
	// message). A study that reads one message alone takes no such codec.
	Stateful bool

	// ReadsOnly, if set, says the entry is an in-place reader, not a
	// codec: it reads the encodings of the codec named here, whose
	// Encode, Decode and Value its cases use for the checks, and it takes
	// part only in the ops that read (results.ReaderOps).
	ReadsOnly string

	// Notes is free text for the report: anything a reader should know.
	Notes string

	// Adopt is what adopting the codec asks beyond its module: generated
	// code and its generator, JIT, a canonical mode (package cost).
	Adopt Adoption

	// New returns a fresh codec. It must not be nil.
	New func() Codec
}

// TimesValue reports whether the runner times Value with Decode: for a
// lazy codec (Lazy), whose Value builds the value, and for one whose
// Value reads the input (ValueReadsInput), whose conversion cannot be
// told from decoding.
func (info *Info) TimesValue() bool { return info.Lazy || info.ValueReadsInput }

// Validate reports whether info is well formed.
func (info *Info) Validate() error {
	switch {
	case info.Name == "":
		return fmt.Errorf("codec: Info has no Name")
	case strings.ContainsAny(info.Name, " /=\t\n,") || strings.ToLower(info.Name) != info.Name:
		return fmt.Errorf("codec: name %q must be lowercase without spaces, '/', '=' or ','", info.Name)
	case info.Family == "":
		return fmt.Errorf("codec %s: Info has no Family", info.Name)
	case info.New == nil:
		return fmt.Errorf("codec %s: Info has no New func", info.Name)
	case info.API == "":
		return fmt.Errorf("codec %s: Info has no API kind", info.Name)
	}
	if info.ValueConverts && info.API == Reflection {
		// A reflection codec decodes into the type handed to Prepare
		// itself: a Value that costs more than a copy is decoding.
		return fmt.Errorf("codec %s: declares ValueConverts with API %s: a reflection codec decodes into the value's own type, so its Value has nothing to convert (ValueConverts is for a codec with types of its own, generated or read from a schema)", info.Name, info.API)
	}
	if info.ValueReadsInput && !info.ValueConverts {
		return fmt.Errorf("codec %s: declares ValueReadsInput without ValueConverts: it says how a converting Value works (ValueReadsInput is for a codec whose Value converts a native value that points into the input)", info.Name)
	}
	for _, l := range info.Losses {
		if err := l.validate(); err != nil {
			return fmt.Errorf("codec %s: %w", info.Name, err)
		}
	}
	return nil
}

// Supports returns nil if the codec can represent values with the given
// features, or an *UnsupportedError naming the first feature it cannot.
func (info *Info) Supports(typ string, f Features) error {
	if bad := f & info.Unsupported; bad != 0 {
		return &UnsupportedError{Codec: info.Name, Type: typ, Reason: "cannot represent " + bad.String()}
	}
	return nil
}
