package registry

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/avro"
	"github.com/serbench/serbench/codecs/bebop"
	"github.com/serbench/serbench/codecs/benc"
	"github.com/serbench/serbench/codecs/capnp"
	"github.com/serbench/serbench/codecs/easyjson"
	"github.com/serbench/serbench/codecs/easyproto"
	"github.com/serbench/serbench/codecs/flatbuffers"
	"github.com/serbench/serbench/codecs/goavro"
	"github.com/serbench/serbench/codecs/gogo"
	"github.com/serbench/serbench/codecs/hyperpb"
	"github.com/serbench/serbench/codecs/msgp"
	"github.com/serbench/serbench/codecs/mus"
	"github.com/serbench/serbench/codecs/proto"
	"github.com/serbench/serbench/codecs/protoopaque"
	"github.com/serbench/serbench/codecs/ssz"
	"github.com/serbench/serbench/codecs/thrift"
	"github.com/serbench/serbench/codecs/vtproto"
)

// schema lists the codecs that compile a schema or generate code:
// Protobuf, vtprotobuf, FlatBuffers, Cap'n Proto, msgp, easyjson, Avro,
// Thrift, Bebop, SSZ; then the hand-written serializers of schema-less binary formats
// (MUS, benc) and of Protobuf without generated code (easyproto).
var schema = []codec.Info{
	proto.Default,
	vtproto.Default,
	vtproto.Pool,
	vtproto.Unsafe,
	protoopaque.Opaque,
	protoopaque.Lazy,
	hyperpb.Default,
	gogo.Fast,
	msgp.Tinylib,
	easyjson.Mailru,
	avro.Hamba,
	goavro.Default,
	flatbuffers.Default,
	capnp.Default,
	thrift.Binary,
	thrift.Compact,
	bebop.Default,
	ssz.Fast,
	mus.Std,
	mus.Unsafe,
	easyproto.Default,
	benc.Std,
}
