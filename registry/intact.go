package registry

import (
	"fmt"

	"github.com/serbench/serbench/codec"
)

// built is each entry of Codecs as the registry built it, before any
// package that imports the registry ran its init (Go initializes a
// package before those that import it): what Intact holds Codecs to.
var built = entries(Codecs)

// An entry is what Intact compares of a registry entry: its declared
// data, and the function its New is.
type entry codec.Declaration

func entries(cs []codec.Info) []entry {
	es := make([]entry, len(cs))
	for i, c := range cs {
		es[i] = entryOf(c)
	}
	return es
}

func entryOf(c codec.Info) entry { return entry(codec.DeclarationOf(c)) }

// Intact returns an error unless every entry the registry was built with
// is the one its adapter's package declared (codec.Declare), once, and is
// still in Codecs, in its place and as it was built, and no name is
// registered twice: code that runs before the registry is built (the
// init of a package it imports, which runs after the packages that
// package imports, its rival's among them) or after it (a package's init,
// a goroutine it starts) must not rewrite a rival's entry (its New, to
// slow the rival down; its losses or unsupported features, to skip or
// excuse it) nor shadow it. Entries appended after the built ones (a
// test's planted codecs) are new codecs, not rewrites. serbench checks
// before any command runs and at each Lookup.
func Intact() error {
	for _, b := range built {
		if err := b.declared(); err != nil {
			return err
		}
	}
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

// declared returns an error unless b is what its adapter's package
// declared, once.
func (b entry) declared() error {
	ds := codec.Declared(b.Name)
	switch {
	case len(ds) == 0:
		return fmt.Errorf("codec %s's registry entry was not declared by its adapter's package: declare it where it is defined (var X = codec.Declare(codec.Info{...})), so that the registry can tell it from a rewrite; serbench does not measure with a registry it cannot trust", b.Name)
	case len(ds) > 1:
		return fmt.Errorf("codec %s is declared %d times (codec.Declare): code other than its adapter's package declared an entry by its name; serbench does not measure with a registry it cannot trust", b.Name, len(ds))
	}
	if what := b.differs(entry(ds[0])); what != "" {
		return fmt.Errorf("codec %s's registry entry is not the one its adapter's package declared (%s): code that ran before the registry was built (the init of a package it imports) changed a rival's entry; serbench does not measure with a registry it cannot trust", b.Name, what)
	}
	return nil
}

// differs says how b differs from was, the entry it should be, or "".
func (b entry) differs(was entry) string {
	switch {
	case b.Name != was.Name:
		return fmt.Sprintf("its place now holds codec %s", b.Name)
	case b.New != was.New:
		return fmt.Sprintf("its New is now %s, not %s", b.New, was.New)
	case b.Data != was.Data:
		return "its declared data (losses, features, capabilities) changed"
	}
	return ""
}

// same returns an error unless c is the entry b was built from.
func (b entry) same(c codec.Info) error {
	what := entryOf(c).differs(b)
	if what == "" {
		return nil
	}
	return fmt.Errorf("codec %s's registry entry was rewritten after the registry was built (%s): code that ran later (another package's init) changed a rival's entry; serbench does not measure with a registry it cannot trust", b.Name, what)
}
