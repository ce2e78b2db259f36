package easyjson

import (
	"github.com/mailru/easyjson"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/mirror"
	"github.com/serbench/serbench/dataset"
)

// Mailru is easyjson's generated code through easyjson.Marshal and
// easyjson.Unmarshal.
var Mailru = codec.Declare(codec.Info{
	Name: "easyjson", Family: "json", Label: "mailru/easyjson", Module: "github.com/mailru/easyjson",
	URL: "https://github.com/mailru/easyjson", API: codec.Codegen,
	Adopt: codec.Adoption{Generator: "easyjson (go tool)"},
	// easyjson generates code for named structs, slices and maps only.
	Unsupported: codec.TopLevelScalar,
	Omits:       dataset.Omits(nil),
	Notes: "easyjson.Marshal and easyjson.Unmarshal, as its README shows: each Marshal builds a new slice " +
		"from easyjson's pooled buffers; Decode unmarshals into a fresh value. " +
		"Values are copied to generated mirror types before timing.",
	ValueConverts: true, // Value copies the decoded mirror back into a dataset type by reflection
	New:           func() codec.Codec { return mirrors },
})

// prepareAs prepares a case for a *D through its mirror M, whose methods
// easyjson generated.
func prepareAs[D, M any, PM interface {
	*M
	easyjson.MarshalerUnmarshaler
}](v any) (codec.Case, error) {
	return mirror.NewCase[D, M](v,
		func(m *M, _ []byte) ([]byte, error) { return easyjson.Marshal(PM(m)) },
		func(m *M, data []byte) error { return easyjson.Unmarshal(data, PM(m)) })
}
