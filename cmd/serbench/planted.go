//go:build planted

package main

import (
	"github.com/serbench/serbench/planted"
	"github.com/serbench/serbench/registry"
)

// A build with -tags planted registers the planted faults beside the real
// codecs, so that a developer can watch the harness catch them:
//
//	go run -tags planted ./cmd/serbench run -codecs json,planted-input -datasets tiny
func init() {
	registry.Codecs = append(append(registry.Codecs, planted.Codecs...), planted.Declarers...)
}
