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
