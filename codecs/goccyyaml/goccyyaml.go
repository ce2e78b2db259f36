// Package goccyyaml adapts github.com/goccy/go-yaml.
package goccyyaml

import (
	"github.com/goccy/go-yaml"

	"github.com/serbench/serbench/codec"
)

// Default is yaml.Marshal and yaml.Unmarshal.
var Default = codec.Info{
	Name: "goccy-yaml", Family: "yaml", Label: "goccy/go-yaml", Module: "github.com/goccy/go-yaml",
	URL: "https://github.com/goccy/go-yaml", API: codec.Reflection,
	New: func() codec.Codec { return codec.Reflect(yaml.Marshal, unmarshal) },
}

func unmarshal(data []byte, v any) error { return yaml.Unmarshal(data, v) }
