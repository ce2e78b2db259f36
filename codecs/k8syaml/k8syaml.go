// Package k8syaml adapts sigs.k8s.io/yaml, which converts between YAML and
// JSON and lets encoding/json do the rest, so Go values use their json tags
// and JSON's rules.
package k8syaml

import (
	"sigs.k8s.io/yaml"

	"github.com/serbench/serbench/codec"
)

// Default is yaml.Marshal and yaml.Unmarshal.
var Default = codec.Declare(codec.Info{
	Name: "k8s-yaml", Family: "yaml", Label: "sigs.k8s.io/yaml", Module: "sigs.k8s.io/yaml",
	URL: "https://github.com/kubernetes-sigs/yaml", API: codec.Reflection,
	Losses: []codec.Loss{{Kind: codec.IntegerFloat}}, // encoding/json's numbers into any
	Notes: "Marshal is json.Marshal then JSON-to-YAML; Unmarshal is YAML-to-JSON then json.Unmarshal: " +
		"two passes each way, encoding/json's behaviour throughout.",
	New: func() codec.Codec { return codec.Reflect(yaml.Marshal, unmarshal) },
})

func unmarshal(data []byte, v any) error { return yaml.Unmarshal(data, v) }
