// Package preset names the selections of codecs, datasets, shapes and ops
// that serbench runs, among them one per seed article, and turns a
// selection into runner jobs.
package preset

import (
	"slices"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/results"
)

// A Preset is a named Selection with the measuring budget that suits it.
type Preset struct {
	Name string
	Doc  string
	Selection
	// Time, if set, is the whole run's time, shared among its benchmarks
	// (runner.Options.Total); Budget is then each one's most.
	Time time.Duration
	// Budget and SampleTime override the runner's defaults when set.
	Budget     time.Duration
	SampleTime time.Duration
}

// A Selection says what to run. Empty lists mean "all".
type Selection struct {
	Codecs   []string
	Datasets []string
	Shapes   []dataset.Shape
	Ops      []results.Op
	// XL includes the extra-large cases (the complex map's slice).
	XL bool
}

// The seed codecs: the formats the five seed articles measured.
// quickCodecs answers "which format" in the default run: the standard
// library's JSON and gob (one-shot and stream, as the articles used it),
// the fastest JSON, Protobuf (generated code and vtprotobuf's), a
// MessagePack by reflection and one by generated code, CBOR, a schema-less
// binary format, and hand-written byte order for the integer.
var quickCodecs = []string{"json", "sonic", "gob", "gob-stream", "proto", "vtproto", "msgpack", "msgp", "cbor", "kelindar-binary", "byteorder"}

// All lists the presets; the first is the default.
var All = []Preset{
	{
		Name: "quick", Doc: "the strongest codec of each family over the articles' payloads up to big; single and slice; three minutes",
		Selection: Selection{
			Codecs:   quickCodecs,
			Datasets: []string{"tiny", "medium", "big", "user", "metric", "complexdata", "game", "int64"},
			Shapes:   []dataset.Shape{dataset.Single, dataset.Slice},
		},
		// The run's three minutes are shared among its benchmarks (see
		// runner.Plan); a benchmark that meets its interval target stops
		// there and leaves its time to the others, up to six seconds each.
		Time:       3 * time.Minute,
		Budget:     6 * time.Second,
		SampleTime: 5 * time.Millisecond,
	},
	{
		Name: "full", Doc: "every codec over every dataset and shape up to huge (no xl), the corpora among them",
	},
	{
		Name: "corpus", Doc: "every JSON codec and every reflection codec that can hold them over the seven real documents (canada_geometry, twitter_status, ...); ten minutes",
		Selection: Selection{
			Codecs:   corpusCodecs(),
			Datasets: corpora(),
			Shapes:   []dataset.Shape{dataset.Single},
		},
		// The documents are hundreds of kilobytes to 2 MB: a decode by a
		// YAML codec takes most of a sample, each benchmark's checks
		// before and after timing take seconds, and the time is shared
		// among about 200 benchmarks.
		Time:       10 * time.Minute,
		Budget:     6 * time.Second,
		SampleTime: 10 * time.Millisecond,
	},
	{
		Name: "gob-json-xml-yaml", Doc: "seed 000: gob, JSON, XML and YAML over the size ladder, single, slice and pointer slice",
		Selection: Selection{
			Codecs:   []string{"gob", "gob-stream", "json", "xml", "yaml"},
			Datasets: []string{"tiny", "medium", "big", "huge", "complexmap"},
		},
	},
	{
		Name: "json-vs-gob", Doc: "seed 001: JSON vs gob on a user, metrics and a composite record",
		Selection: Selection{
			Codecs:   []string{"json", "gob", "gob-stream"},
			Datasets: []string{"user", "metric", "complexdata"},
			Shapes:   []dataset.Shape{dataset.Single, dataset.Slice},
		},
	},
	{
		Name: "gob-proto", Doc: "seed 002: gob vs Protobuf over the size ladder and the complex map, single and slice",
		Selection: Selection{
			Codecs:   []string{"gob", "gob-stream", "proto"},
			Datasets: []string{"tiny", "medium", "big", "huge", "complexmap"},
			Shapes:   []dataset.Shape{dataset.Single, dataset.Slice},
			Ops:      []results.Op{results.Encode, results.Decode},
		},
	},
	{
		Name: "game-message", Doc: "seed 003: gob vs JSON on a game-server message",
		Selection: Selection{
			Codecs:   []string{"json", "gob", "gob-stream"},
			Datasets: []string{"game", "int64"},
			Shapes:   []dataset.Shape{dataset.Single},
		},
	},
	{
		Name: "int-to-bytes", Doc: "seed 004: an int64 by binary.Write, byte order by hand, strconv and gob, fair and as the article wrote them",
		Selection: Selection{
			Codecs:   []string{"binary", "byteorder", "strconv", "gob", "gob-stream", "seed004-byteorder", "seed004-strconv", "seed004-binary", "seed004-gob"},
			Datasets: []string{"int64"},
		},
	},
	{
		Name: "harness", Doc: "the operations scripts/harness-check times with both serbench and testing.B, alternating in one process",
		Selection: Selection{
			Codecs:   []string{"json", "gob", "gob-stream", "binary", "byteorder", "strconv"},
			Datasets: []string{"tiny", "big", "metric", "int64"},
			Shapes:   []dataset.Shape{dataset.Single, dataset.Slice},
		},
		// quick's sampling, so that the check measures the harness as
		// the default run uses it; with the runner's defaults (1s
		// budget, 10ms samples) most of these benchmarks would stop
		// short of their interval target.
		Budget:     6 * time.Second,
		SampleTime: 5 * time.Millisecond,
	},
}

// corpora returns the names of the corpus datasets.
func corpora() []string {
	var names []string
	for _, d := range dataset.All {
		if d.Corpus != nil {
			names = append(names, d.Name)
		}
	}
	return names
}

// corpusCodecs returns the codecs the corpus preset measures: every JSON
// codec and every reflection codec, each if it can hold one corpus type
// at least (the schema codecs omit the corpora); not the in-place
// readers, which take no part in encode and decode.
func corpusCodecs() []string {
	var names []string
	for _, c := range registry.RoundTrippers() {
		if c.Family != "json" && c.API != codec.Reflection {
			continue
		}
		for _, d := range dataset.All {
			if d.Corpus != nil && c.Supports(d.Type().String(), codec.FeaturesOf(d.Type())) == nil {
				if _, omitted := c.Omits[d.Name]; !omitted {
					names = append(names, c.Name)
					break
				}
			}
		}
	}
	return names
}

// Lookup returns the preset named name.
func Lookup(name string) (Preset, error) {
	for _, p := range All {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, suggest.Check("preset", []string{name}, names(), nil, "serbench list presets")
}

// names returns the preset names.
func names() []string {
	var names []string
	for _, p := range All {
		names = append(names, p.Name)
	}
	return names
}

func has[T comparable](list []T, v T) bool { return len(list) == 0 || slices.Contains(list, v) }
