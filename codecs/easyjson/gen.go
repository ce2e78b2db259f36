package easyjson

// easyjson builds and runs a bootstrap program in this directory and
// removes it afterwards. The generators are pinned by go.mod's tool
// directives.
//go:generate go run github.com/serbench/serbench/codecs/internal/mirror/mirrorgen -o mirror_gen.go -prepare prepareAs -annotate easyjson:json
//go:generate go tool easyjson -output_filename easyjson_gen.go mirror_gen.go
