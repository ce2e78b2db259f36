package sonic

import (
	"fmt"
	"strconv"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/ast"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/jsonread"
)

// AST is sonic's in-place reading: sonic.Get locates each field by its
// path and returns an ast.Node, read with the node's own conversions.
// sonic.Get into a Node of the whole document, then Interface, gives
// generic values. It is an in-place reader of encoding/json's encodings
// (codec.Info.ReadsOnly), not a codec of its own. sonic.Unmarshal's
// decoders are the JIT's.
var AST = codec.Declare(func() codec.Info {
	i := jsonread.Info("sonic-ast", "bytedance/sonic (ast)", module, url,
		"Each field is one sonic.Get with the field's path, which skips to the value and copies it out (Get's safe mode); "+
			"a nested element is located by sonic.Get and decoded by sonic.Unmarshal. Generic values: sonic.Get of the root, then Node.Interface (numbers as float64).",
		func() codec.Codec { return jsonread.New(astReader, astAny) })
	i.Adopt.JIT = jit
	return i
}())

func astAny(data []byte) (any, error) {
	root, err := sonic.Get(data)
	if err != nil {
		return nil, err
	}
	return root.Interface()
}

func astReader(fields []codec.Field) (*codec.Reader, error) {
	paths := make([][]any, len(fields))
	for i, f := range fields {
		for _, s := range f.Path {
			if s.Field == "" {
				paths[i] = append(paths[i], s.Index)
			} else {
				paths[i] = append(paths[i], s.Field)
			}
		}
	}
	return &codec.Reader{Via: "sonic.Get per field", Read: func(data []byte, out []any) error {
		for i, f := range fields {
			n, err := sonic.Get(data, paths[i]...)
			if err == nil {
				out[i], err = astConvert(&n, f)
			}
			if err != nil {
				return fmt.Errorf("sonic.Get: %s: %w", f.Path, err)
			}
		}
		return nil
	}}, nil
}

// astConvert reads n as the field's type, with the node's own
// conversions.
func astConvert(n *ast.Node, f codec.Field) (any, error) {
	var x any
	var err error
	switch jsonread.KindOf(f.Type) {
	case jsonread.Int:
		x, err = n.StrictInt64()
	case jsonread.Uint:
		var num interface{ String() string }
		if num, err = n.StrictNumber(); err == nil {
			x, err = strconv.ParseUint(num.String(), 10, 64)
		}
	case jsonread.Float:
		x, err = n.StrictFloat64()
	case jsonread.String:
		x, err = n.StrictString()
	case jsonread.Bool:
		x, err = n.StrictBool()
	case jsonread.Bytes:
		var s string
		if s, err = n.StrictString(); err == nil {
			return jsonread.DecodeBytes([]byte(s))
		}
	case jsonread.Time:
		var s string
		if s, err = n.StrictString(); err == nil {
			return jsonread.ParseTime(s)
		}
	default:
		var raw string
		if raw, err = n.Raw(); err == nil {
			return jsonread.Decode([]byte(raw), f.Type, sonic.Unmarshal)
		}
	}
	if err != nil {
		return nil, err
	}
	return jsonread.As(x, f.Type), nil
}
