// Package thrift adapts Apache Thrift's Go library: the structs the Thrift
// compiler generates from schema/serbench.thrift, written and read through
// TSerializer and TDeserializer with the binary protocol (thrift-binary)
// or the compact protocol (thrift-compact).
package thrift

import (
	"context"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
	"github.com/serbench/serbench/codecs/thrift/schema"
	"github.com/serbench/serbench/dataset"
)

// Binary is Thrift's binary protocol.
var Binary = codec.Declare(info("thrift-binary", "binary protocol", func(conf *thrift.TConfiguration) thrift.TProtocolFactory {
	return thrift.NewTBinaryProtocolFactoryConf(conf)
}))

// Compact is Thrift's compact protocol (zigzag varints, field-id deltas).
var Compact = codec.Declare(info("thrift-compact", "compact protocol", func(conf *thrift.TConfiguration) thrift.TProtocolFactory {
	return thrift.NewTCompactProtocolFactoryConf(conf)
}))

// info returns the Info of the codec that writes the generated structs
// with the protocol factory makes.
func info(name, protocol string, factory func(*thrift.TConfiguration) thrift.TProtocolFactory) codec.Info {
	return codec.Info{
		Name: name, Family: "thrift", Label: "Apache Thrift (" + protocol + ")",
		Module: "github.com/apache/thrift", URL: "https://thrift.apache.org/docs/",
		API:         codec.Codegen,
		Adopt:       codec.Adoption{Generator: "thrift (the Apache Thrift compiler)"},
		Unsupported: codec.TopLevelScalar,
		Losses:      []codec.Loss{{Kind: codec.TimeZone}}, // a Timestamp holds the UTC instant
		Omits: dataset.Omits(map[string]string{
			"edgeportable": "Edge itself is covered: its uint64 above MaxInt64 travels as the i64 of the same bits and its tab in a string, " +
				"so Edge without them would show nothing more",
		}),
		Notes: "Generated structs (Debian's thrift-compiler), TSerializer.Write and TDeserializer.Read with the " +
			protocol + ", one of each per case. " + schema.Notes,
		New: func() codec.Codec {
			return codec.Func(func(v any) (codec.Case, error) { return prepare(v, factory) })
		},
	}
}

// conf lifts the default 100 MB message cap, which the XL datasets exceed.
var conf = &thrift.TConfiguration{MaxMessageSize: 1 << 30}

func prepare(v any, factory func(*thrift.TConfiguration) thrift.TProtocolFactory) (codec.Case, error) {
	f := factory(conf)
	ser := thrift.NewTSerializer()
	ser.Transport = thrift.NewTMemoryBufferLen(1024)
	ser.Protocol = f.GetProtocol(ser.Transport)
	de := thrift.NewTDeserializer()
	de.Transport = thrift.NewTMemoryBufferLen(1024)
	de.Protocol = f.GetProtocol(de.Transport)
	return shapes.NewCase(func() (schema.Binding, error) { return schema.Bind(v) },
		func(m thrift.TStruct, _ []byte) ([]byte, error) { return ser.Write(context.Background(), m) },
		func(m thrift.TStruct, data []byte) error { return de.Read(context.Background(), m, data) })
}
