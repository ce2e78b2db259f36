// Package gotypes holds the Go types of the evolution study: v1 and v2,
// each a struct per case at one version, written from the cases by
// evolve/internal/gengo, which the reflection codecs read and write, with
// the methods msgp and easyjson generate for them.
package gotypes

//go:generate go run ../internal/gengo -o .
//go:generate gofmt -w v1/types.go v2/types.go
//go:generate sh -c "cd v1 && go tool msgp -file types.go -o msgp_gen.go -io=false -tests=false -d 'tag json'"
//go:generate sh -c "cd v2 && go tool msgp -file types.go -o msgp_gen.go -io=false -tests=false -d 'tag json'"
//go:generate sh -c "cd v1 && go tool easyjson -all -no_std_marshalers -output_filename easyjson_gen.go types.go"
//go:generate sh -c "cd v2 && go tool easyjson -all -no_std_marshalers -output_filename easyjson_gen.go types.go"
