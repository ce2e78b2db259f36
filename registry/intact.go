package registry

import (
	"fmt"
	"reflect"
	"runtime"

	"github.com/serbench/serbench/codec"
)

// built is each entry of Codecs as the registry built it, before any
// package that imports the registry ran its init (Go initializes a
// package before those that import it): what Intact holds Codecs to.
var built = entries(Codecs)

// An entry is what Intact compares of a registry entry: its declared
// data, and the function its New is.
type entry struct {
	name string
	data string // the entry's fields, New aside, as Go syntax
	fn   string // the name of New's function, as the binary's symbol table has it
}

func entries(cs []codec.Info) []entry {
	es := make([]entry, len(cs))
	for i, c := range cs {
		es[i] = entryOf(c)
	}
	return es
}

func entryOf(c codec.Info) entry {
	fn := "nil"
	if c.New != nil {
		pc := reflect.ValueOf(c.New).Pointer()
		fn = fmt.Sprintf("%#x", pc)
		if f := runtime.FuncForPC(pc); f != nil {
			fn = f.Name()
		}
	}
	c.New = nil
	return entry{name: c.Name, data: fmt.Sprintf("%#v", c), fn: fn}
}

// Intact returns an error unless every entry the registry was built with
// is still in Codecs, in its place and as it was built, and no name is
// registered twice: code that runs after the registry is built (a
// package's init, a goroutine it starts) must not rewrite a rival's entry
// (its New, to slow the rival down; its losses or unsupported features,
// to skip or excuse it) nor shadow it. Entries appended after the built
// ones (a test's planted codecs) are new codecs, not rewrites. serbench
// checks before any command runs and at each Lookup.
func Intact() error {
	if len(Codecs) < len(built) {
		return fmt.Errorf("the codec registry lost %d of its %d entries after it was built: code that ran later (a package's init) rewrote it; serbench does not measure with a registry it cannot trust", len(built)-len(Codecs), len(built))
	}
	for i, b := range built {
		if err := b.same(Codecs[i]); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, c := range Codecs {
		if seen[c.Name] {
			return fmt.Errorf("codec %s is registered twice: code that ran after the registry was built added a second entry by its name; serbench does not measure with a registry it cannot trust", c.Name)
		}
		seen[c.Name] = true
	}
	return nil
}

// same returns an error unless c is the entry b was built from.
func (b entry) same(c codec.Info) error {
	now := entryOf(c)
	var what string
	switch {
	case now.name != b.name:
		what = fmt.Sprintf("its place now holds codec %s", now.name)
	case now.fn != b.fn:
		what = fmt.Sprintf("its New is now %s, not %s", now.fn, b.fn)
	case now.data != b.data:
		what = "its declared data (losses, features, capabilities) changed"
	default:
		return nil
	}
	return fmt.Errorf("codec %s's registry entry was rewritten after the registry was built (%s): code that ran later (another package's init) changed a rival's entry; serbench does not measure with a registry it cannot trust", b.name, what)
}
