// Package schema holds serbench's datasets as Bebop definitions
// (serbench.bop) and the Go code bebopc-go generates from them, at the
// version go.mod's tool directive pins.
//
// Regenerate with `go generate ./...` from the module root.
package schema

//go:generate go tool bebopc-go -i serbench.bop -o serbench.go -package schema
//go:generate gofmt -w serbench.go
