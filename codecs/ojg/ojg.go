// Package ojg adapts github.com/ohler55/ojg, Optimized JSON for Go: oj's
// writer encodes Go values, and oj's parser and alt's Recomposer decode.
package ojg

import (
	"reflect"
	"sync"
	"time"

	"github.com/ohler55/ojg"
	"github.com/ohler55/ojg/alt"
	"github.com/ohler55/ojg/oj"

	"github.com/serbench/serbench/codec"
)

// Default is oj.Marshal with the options closest to encoding/json, and
// oj.Parser with alt.Recompose.
var Default = codec.Declare(codec.Info{
	Name: "ojg", Family: "json", Label: "ohler55/ojg", Module: "github.com/ohler55/ojg",
	URL: "https://github.com/ohler55/ojg", API: codec.Reflection,
	// alt.Recompose cannot turn an object's string keys into ints.
	Unsupported: codec.NonStringKey,
	// A nil slice or map is written as null, which Recompose fills as an
	// empty one.
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "oj.Marshal with ojg.GoOptions (json tags, base64 bytes) and RFC 3339 times with nanoseconds. " +
		"Decoding parses to generic values with oj.Parser, then alt.Recompose fills the typed value: " +
		"oj.Unmarshal would parse every number as a float64 and lose integers above 2^53. " +
		"The parser reads integers as int64: a uint64 above MaxInt64 is refused. A struct embedding another " +
		"(twitter_status) is refused: Recompose fails on it. alt.Recompose's shared Recomposer caches types in maps " +
		"it does not lock, so decodes take a lock.",
	New: func() codec.Codec {
		return codec.Refuse(codec.SignedInts("oj.Parser's", codec.Reflect(marshal, unmarshal)), []reflect.Kind{reflect.Struct}, embedded)
	},
})

// options are ojg.GoOptions, writing times as RFC 3339 with nanoseconds.
var options = func() ojg.Options {
	o := ojg.GoOptions
	o.TimeFormat = time.RFC3339Nano
	return o
}()

func marshal(v any) ([]byte, error) { return oj.Marshal(v, &options) }

func unmarshal(data []byte, v any) error {
	var p oj.Parser
	generic, err := p.Parse(data)
	if err != nil {
		return err
	}
	recompose.Lock()
	defer recompose.Unlock()
	_, err = alt.Recompose(generic, v)
	return err
}

// recompose serializes alt.Recompose, whose shared Recomposer writes its
// type cache without a lock.
var recompose sync.Mutex

// embedded says why a struct that embeds another is refused, or "".
func embedded(v reflect.Value) string {
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Anonymous {
			return "alt.Recompose cannot fill the fields of the embedded " + f.Type.String()
		}
	}
	return ""
}
