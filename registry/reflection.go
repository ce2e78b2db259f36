package registry

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/bson"
	"github.com/serbench/serbench/codecs/burntsushi"
	"github.com/serbench/serbench/codecs/cbor"
	"github.com/serbench/serbench/codecs/goccyjson"
	"github.com/serbench/serbench/codecs/goccyyaml"
	"github.com/serbench/serbench/codecs/gomsgpack"
	"github.com/serbench/serbench/codecs/jsoniter"
	"github.com/serbench/serbench/codecs/jsonv2"
	"github.com/serbench/serbench/codecs/k8syaml"
	"github.com/serbench/serbench/codecs/kelindar"
	"github.com/serbench/serbench/codecs/msgpack"
	"github.com/serbench/serbench/codecs/ojg"
	"github.com/serbench/serbench/codecs/pelletier"
	"github.com/serbench/serbench/codecs/segmentio"
	"github.com/serbench/serbench/codecs/shamaton"
	"github.com/serbench/serbench/codecs/sonic"
	"github.com/serbench/serbench/codecs/ugorji"
	"github.com/serbench/serbench/codecs/xdr"
)

// reflection lists the maintained reflection-based codecs beyond the
// standard library: JSON rivals, MessagePack, CBOR, BSON, YAML, TOML and
// binary formats. Each library's idiomatic default comes first; a variant
// (a faster config, a reused encoder) follows it and says in Info.Variant
// how it departs from the default.
var reflection = []codec.Info{
	jsonv2.V2,
	sonic.Default,
	sonic.Std,
	sonic.Fastest,
	goccyjson.Default,
	goccyjson.Fast,
	jsoniter.Std,
	jsoniter.Fastest,
	segmentio.Std,
	segmentio.Append,
	ojg.Default,

	msgpack.Default,
	msgpack.Reuse,
	shamaton.Map,
	shamaton.Array,
	ugorji.Msgpack,
	ugorji.MsgpackReuse,
	gomsgpack.Default,

	cbor.Default,
	cbor.Nano,
	cbor.Limits,
	ugorji.CBOR,

	bson.Driver,

	ugorji.Binc,
	kelindar.Default,
	xdr.Default,

	goccyyaml.Default,
	k8syaml.Default,

	pelletier.V2,
	burntsushi.Default,
}
