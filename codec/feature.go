package codec

import (
	"reflect"
	"strings"
	"time"
)

// Features is a set of properties of a Go type that some codecs cannot
// represent. FeaturesOf derives them from a type, so datasets never have to
// declare them by hand.
type Features uint32

// The features.
const (
	Map            Features = 1 << iota // contains a map
	NonStringKey                        // contains a map whose key is not a string
	Time                                // contains a time.Time
	Pointer                             // contains a pointer
	Interface                           // contains an interface value
	VariableSize                        // not a fixed-size value as encoding/binary defines it
	TopLevelSlice                       // the value itself is a slice or an array
	TopLevelScalar                      // the value itself is not a struct, map, slice or array
	Recursive                           // contains a type that contains itself (a tree)
	Array                               // contains a fixed-size array
)

var featureNames = []string{
	"maps", "non-string map keys", "time.Time", "pointers", "interfaces",
	"variable-size data", "a top-level slice", "a top-level scalar",
	"recursive types", "arrays",
}

// String lists the features in words.
func (f Features) String() string {
	var parts []string
	for i, name := range featureNames {
		if f&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

var timeType = reflect.TypeFor[time.Time]()

// FeaturesOf returns the features of t, dereferencing a top-level pointer
// first (values are handed to codecs as pointers).
func FeaturesOf(t reflect.Type) Features {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	seen := map[reflect.Type]walked{}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		// encoding/binary takes a top-level slice of fixed-size values.
		return TopLevelSlice | walk(t.Elem(), seen)
	case reflect.Struct, reflect.Map:
		return walk(t, seen)
	default:
		return TopLevelScalar | walk(t, seen)
	}
}

// walked is how far walk has gone through a type.
type walked uint8

const (
	walking walked = 1 + iota // its walk has begun and not ended: a type met again now contains itself
	done
)

func walk(t reflect.Type, seen map[reflect.Type]walked) Features {
	switch seen[t] {
	case walking:
		return Recursive
	case done:
		return 0
	}
	seen[t] = walking
	f := walkType(t, seen)
	seen[t] = done
	return f
}

func walkType(t reflect.Type, seen map[reflect.Type]walked) Features {
	if t == timeType {
		return Time | VariableSize
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return 0
	case reflect.Int, reflect.Uint, reflect.Uintptr, reflect.String:
		return VariableSize
	case reflect.Pointer:
		return Pointer | VariableSize | walk(t.Elem(), seen)
	case reflect.Slice:
		return VariableSize | walk(t.Elem(), seen)
	case reflect.Array:
		return Array | walk(t.Elem(), seen)
	case reflect.Map:
		f := Map | VariableSize | walk(t.Key(), seen) | walk(t.Elem(), seen)
		if t.Key().Kind() != reflect.String {
			f |= NonStringKey
		}
		return f
	case reflect.Interface:
		return Interface | VariableSize
	case reflect.Struct:
		var f Features
		for i := range t.NumField() {
			f |= walk(t.Field(i).Type, seen)
		}
		return f
	default:
		return VariableSize
	}
}
