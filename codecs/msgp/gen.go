package msgp

// The mirror types go in mirror_gen.go and the list types ([]T, []*T) in
// lists_gen.go, and msgp runs once per file: within one file msgp inlines
// small named types into the types that use them, and v1.6.5 inlines a
// named map into a slice of pointers to it as code that does not compile
// (*(*z)[i][k] for (*(*z)[i])[k]). Across files it calls the element's
// methods instead. The generators are pinned by go.mod's tool directives.
//go:generate go run github.com/serbench/serbench/codecs/internal/mirror/mirrorgen -o mirror_gen.go -lists lists_gen.go -prepare prepareAs
//go:generate go tool msgp -file mirror_gen.go -o msgp_gen.go -io=false -tests=false -d "tag json" -d "timezone utc"
//go:generate go tool msgp -file lists_gen.go -o msgp_lists_gen.go -io=false -tests=false -d "tag json" -d "timezone utc"
