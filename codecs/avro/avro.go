// Package avro adapts github.com/hamba/avro/v2, Apache Avro with schemas
// resolved against Go types at run time.
//
// The schemas are in dataset.avsc beside this file: one record for each
// dataset struct, field names the datasets' json tags (hamba's TagKey).
// Pointers are unions with null. A uint64 is a fixed of 8 bytes, hamba's
// mapping, since Avro's long is signed. Times are long timestamp-micros,
// the finest Avro timestamp hamba implements: the dataset times carry
// nanoseconds, so they come back truncated to the microsecond and in UTC,
// declared as losses. (Avro 1.12 has timestamp-nanos, which hamba lacks; a
// bare long of Unix nanoseconds would keep them, but the schema would no
// longer say the field is a time, which is the point of a schema.)
package avro

import (
	_ "embed"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// Hamba is hamba/avro's Marshal and Unmarshal with the schemas of
// dataset.avsc.
var Hamba = codec.Declare(codec.Info{
	Name: "avro", Family: "avro", Label: "hamba/avro", Module: "github.com/hamba/avro/v2",
	URL: "https://github.com/hamba/avro", API: codec.Schema,
	Losses: []codec.Loss{
		{Kind: codec.TimePrecision, Precision: time.Microsecond}, // timestamp-micros
		{Kind: codec.TimeZone}, // timestamps are UTC instants
		{Kind: codec.NilEmpty}, // arrays and maps have no null
	},
	Omits: dataset.Omits(map[string]string{
		"edgeportable": "Edge itself is covered: its uint64 above MaxInt64 travels as an 8-byte fixed and its tab in a string, " +
			"so Edge without them would show nothing more",
	}),

	Notes: "Schema-driven: dataset.avsc, parsed once; hamba compiles an encoder and decoder " +
		"per schema and Go type on first use (no generated Go code). Marshal and Unmarshal as " +
		"documented, decoding into a fresh value. Times are timestamp-micros (microseconds, UTC); " +
		"uint64 is an 8-byte fixed.",
	New: func() codec.Codec { return codec.Func(prepare) },
})

// AVSC is dataset.avsc: a JSON array of the named types (records and a
// fixed) that the schemas of SchemaFor refer to.
//
//go:embed dataset.avsc
var AVSC []byte

// schemas maps each dataset type to its Avro schema: a record of
// dataset.avsc by name, or a schema of its own.
var schemas = map[reflect.Type]string{
	reflect.TypeFor[dataset.Tiny]():        `"serbench.Tiny"`,
	reflect.TypeFor[dataset.Medium]():      `"serbench.Medium"`,
	reflect.TypeFor[dataset.Big]():         `"serbench.Big"`,
	reflect.TypeFor[dataset.Huge]():        `"serbench.Huge"`,
	reflect.TypeFor[dataset.ComplexMap]():  `{"type": "map", "values": "serbench.Huge"}`,
	reflect.TypeFor[dataset.User]():        `"serbench.User"`,
	reflect.TypeFor[dataset.Metric]():      `"serbench.Metric"`,
	reflect.TypeFor[dataset.ComplexData](): `"serbench.ComplexData"`,
	reflect.TypeFor[dataset.A]():           `"serbench.A"`,
	reflect.TypeFor[int64]():               `"long"`,
	reflect.TypeFor[dataset.Edge]():        `"serbench.Edge"`,
	reflect.TypeFor[dataset.EdgeMaps]():    `"serbench.EdgeMaps"`,
	reflect.TypeFor[dataset.Nest]():        `"serbench.Nest"`,
}

// api reads the datasets' json tags as Avro field names.
var api = avro.Config{TagKey: "json"}.Freeze()

// named parses dataset.avsc once into a cache of its named types.
var named = sync.OnceValues(func() (*avro.SchemaCache, error) {
	cache := &avro.SchemaCache{}
	if _, err := avro.ParseBytesWithCache(AVSC, "", cache); err != nil {
		return nil, fmt.Errorf("avro: dataset.avsc: %w", err)
	}
	return cache, nil
})

// SchemaFor returns the schema of a value of type t (a dataset type, or a
// slice of dataset values or of pointers to them) as JSON text naming the
// types of AVSC.
func SchemaFor(t reflect.Type) (string, bool) {
	if s, ok := schemas[t]; ok {
		return s, true
	}
	if t.Kind() != reflect.Slice {
		return "", false
	}
	if s, ok := schemas[t.Elem()]; ok {
		return `{"type": "array", "items": ` + s + `}`, true
	}
	if t.Elem().Kind() == reflect.Pointer {
		if s, ok := schemas[t.Elem().Elem()]; ok {
			return `{"type": "array", "items": ["null", ` + s + `]}`, true
		}
	}
	return "", false
}

func prepare(v any) (codec.Case, error) {
	elem, err := codec.PointerElem(v)
	if err != nil {
		return nil, err
	}
	text, ok := SchemaFor(elem)
	if !ok {
		return nil, codec.Unsupported(v, "no Avro schema for it in dataset.avsc")
	}
	cache, err := named()
	if err != nil {
		return nil, err
	}
	schema, err := avro.ParseWithCache(text, "", cache)
	if err != nil {
		return nil, fmt.Errorf("avro: schema for %s: %w", elem, err)
	}
	// hamba encodes a pointer to a record but not to an array or a map:
	// hand it the value itself, boxed once here.
	return &avroCase{schema: schema, v: reflect.ValueOf(v).Elem().Interface(), elem: elem}, nil
}

type avroCase struct {
	schema avro.Schema
	v      any
	elem   reflect.Type
	out    any
}

func (c *avroCase) Encode() ([]byte, error) { return api.Marshal(c.schema, c.v) }

func (c *avroCase) Decode(data []byte) error {
	c.out = reflect.New(c.elem).Interface()
	return api.Unmarshal(c.schema, data, c.out)
}

func (c *avroCase) Value() (any, error) { return c.out, nil }
