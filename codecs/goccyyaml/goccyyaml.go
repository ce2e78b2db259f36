// Package goccyyaml adapts github.com/goccy/go-yaml.
package goccyyaml

import (
	"reflect"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/serbench/serbench/codec"
)

// Default is yaml.Marshal and yaml.Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "goccy-yaml", Family: "yaml", Label: "goccy/go-yaml", Module: "github.com/goccy/go-yaml",
	URL: "https://github.com/goccy/go-yaml", API: codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	Notes: "A nil slice or map encodes as [] or {}, so it decodes empty. " +
		"Values holding a one-line string with a tab are refused: Marshal writes such a string " +
		"unquoted and Unmarshal reads it back without its tabs, silently (v1.19.2); and those holding a string " +
		"with a carriage return, which comes back as a line feed.",
	New: func() codec.Codec { return codec.Refuse(codec.Reflect(yaml.Marshal, unmarshal), strKind, tabbed) },
})

func unmarshal(data []byte, v any) error { return yaml.Unmarshal(data, v) }

var strKind = []reflect.Kind{reflect.String}

// tabbed rejects the strings go-yaml loses tabs from.
func tabbed(v reflect.Value) string {
	s := v.String()
	if strings.Contains(s, "\t") && !strings.Contains(s, "\n") {
		return "goccy/go-yaml drops the tabs of a one-line string (written unquoted, read back without them)"
	}
	if strings.Contains(s, "\r") {
		return "goccy/go-yaml reads a carriage return in a string back as a line feed"
	}
	return ""
}
