package codec

// Adoption is what adopting a codec asks of a project beyond importing
// its module, declared as facts about the library: what the cost study
// (package cost) reports beside what it measures, and checks against it
// where it can be measured.
type Adoption struct {
	// JIT, if set, says the library generates machine code at run time,
	// and how: "encoders and decoders compiled per type on first use". The
	// cost study measures it as a dependency that maps memory executable.
	JIT string
	// Generator names the tools a user must install to produce the
	// codec's generated code, as a user would install them: "protoc,
	// protoc-gen-go (go tool)". Empty for a codec without generated code.
	// The cost study checks it against the generated files it counts.
	Generator string
	// Canonical names the library's deterministic or canonical encoding
	// mode, where it offers one the codec's default does not use:
	// "proto.MarshalOptions{Deterministic: true}".
	Canonical string
}
