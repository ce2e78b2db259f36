// Package yaml adapts go.yaml.in/yaml/v4, the YAML organization's
// maintained continuation of gopkg.in/yaml (whose repository was archived
// in 2025); sigs.k8s.io/yaml builds on the same code.
package yaml

import (
	"io"

	"go.yaml.in/yaml/v4"

	"github.com/serbench/serbench/codec"
)

// V4 is go.yaml.in/yaml/v4's Marshal and Unmarshal.
var V4 = codec.Declare(codec.Info{
	Name: "yaml", Family: "yaml", Label: "go.yaml.in/yaml/v4", Module: "go.yaml.in/yaml/v4",
	URL: "https://github.com/yaml/go-yaml", API: codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.NilEmpty}},
	New: func() codec.Codec {
		return codec.WithStream(codec.Reflect(yaml.Marshal, yaml.Unmarshal),
			func(w io.Writer) codec.Encoder { return yaml.NewEncoder(w) },
			func(r io.Reader) codec.Decoder { return yaml.NewDecoder(r) })
	},
})
