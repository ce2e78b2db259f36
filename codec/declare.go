package codec

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
)

// A Declaration is what Declare records of a registry entry: its name,
// its declared data (every field but New, as Go syntax) and the function
// its New is (as the binary's symbol table names it).
type Declaration struct {
	Name, Data, New string
}

// DeclarationOf returns info's Declaration.
func DeclarationOf(info Info) Declaration {
	fn := "nil"
	if info.New != nil {
		pc := reflect.ValueOf(info.New).Pointer()
		fn = fmt.Sprintf("%#x", pc)
		if f := runtime.FuncForPC(pc); f != nil {
			fn = f.Name()
		}
	}
	name := info.Name
	info.New = nil
	return Declaration{Name: name, Data: fmt.Sprintf("%#v", info), New: fn}
}

// declared holds every Declaration made, in order.
var declared struct {
	sync.Mutex
	all []Declaration
}

// Declare records info as its adapter's package declares it and returns
// it unchanged. An adapter declares each registry entry it defines in the
// package-level variable that holds it:
//
//	var Std = codec.Declare(codec.Info{...})
//
// so that the entry is recorded while that package is initialized, before
// any package that imports it runs its init (Go initializes a package
// before its importers). A package that rewrites a rival's entry in its
// init must import the rival's package, so it runs later: the registry
// holds every entry to its one declaration (registry.Intact) and refuses
// the rewrite, even when the rewriting package is one the registry itself
// imports. What is recorded is text, so that no later write into the
// entry's slices or maps reaches it.
func Declare(info Info) Info {
	d := DeclarationOf(info)
	declared.Lock()
	declared.all = append(declared.all, d)
	declared.Unlock()
	return info
}

// Declared returns the Declarations made of the entry named name, in the
// order made: one for an entry declared once.
func Declared(name string) []Declaration {
	declared.Lock()
	defer declared.Unlock()
	var out []Declaration
	for _, d := range declared.all {
		if d.Name == name {
			out = append(out, d)
		}
	}
	return out
}
