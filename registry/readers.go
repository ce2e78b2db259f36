package registry

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/fastjson"
	"github.com/serbench/serbench/codecs/gjson"
	"github.com/serbench/serbench/codecs/jsonparser"
	"github.com/serbench/serbench/codecs/sonic"
)

// readers lists the in-place readers: libraries that read fields of an
// encoding without decoding it whole, and neither encode nor decode typed
// values (codec.Info.ReadsOnly). They take part in the ops that read.
var readers = []codec.Info{
	sonic.AST,
	gjson.Reader,
	fastjson.Reader,
	jsonparser.Reader,
}

// RoundTrippers returns the registered codecs that make round trips of
// their own, in registry order: all but the in-place readers, whose
// round trips are another codec's. The studies of round trips (fidelity,
// hostile) take these by default.
func RoundTrippers() []codec.Info {
	var out []codec.Info
	for _, c := range Codecs {
		if c.ReadsOnly == "" {
			out = append(out, c)
		}
	}
	return out
}
