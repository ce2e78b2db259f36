package planted

import (
	"encoding/json"
	"time"

	"github.com/serbench/serbench/codec"
)

// The planted codecs whose declared losses are larger than what they
// lose (Declarers).
const (
	LooseTime = "planted-loose-time"
	Century   = "planted-century"
	Converts  = "planted-converts"
)

// Declarers lists the planted codecs whose declarations excuse what they
// do: losses larger than what they lose (verification allows what a
// codec declares, so such a declaration would let it drop what it claims
// to keep; they are exact json), and a conversion declared for a Value
// that decodes. They are not in Codecs: planted-century's and
// planted-converts' Infos are ones Validate refuses.
var Declarers = []codec.Info{
	declarer(LooseTime, "declares an hour's time precision",
		"planted fault: exact json that declares a time precision of an hour (the fidelity probe time-nanos comes back exact)",
		codec.Loss{Kind: codec.TimePrecision, Precision: time.Hour}),
	declarer(Century, "declares 200 years' time precision",
		"planted fault: exact json that declares a time precision of 200 years, which would accept any time at all",
		codec.Loss{Kind: codec.TimePrecision, Precision: 200 * 365 * 24 * time.Hour}),
	converts(),
}

// converts returns planted-converts: planted-lazy-value (Decode copies its
// input, Value decodes it) declaring ValueConverts, which exempts a Value
// costing more than Decode from the runner's flag.
func converts() codec.Info {
	c := info(Converts, "decodes in Value, declared a conversion",
		"planted fault: Decode copies its input; Value decodes it, and the codec, a reflection codec, declares ValueConverts (Value only converts)",
		func(v any) (codec.Case, error) { return newCase(v, &lazyValueCase{}) })
	c.ValueConverts = true
	return c
}

func declarer(name, label, notes string, l codec.Loss) codec.Info {
	c := codec.Info{
		Name: name, Family: "planted", Label: "planted: " + label, Module: "std",
		URL: "https://pkg.go.dev/encoding/json", API: codec.Reflection, Notes: notes,
		Losses: []codec.Loss{l},
	}
	c.New = func() codec.Codec { return codec.Reflect(json.Marshal, json.Unmarshal) }
	return c
}
