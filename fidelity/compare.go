package fidelity

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// A relaxation is one named way of comparing less strictly. compare tries
// them in sets, fewest first, and the cell names the set that made the
// values equal: the normalisation.
type relaxation struct {
	zone                                              int           // 0: strict; 1: monotonic reading ignored; 2: zone name ignored, offset kept; 3: instant only
	prec                                              time.Duration // times equal at this precision, truncated or rounded; 0: exact
	nilEmpty, nilZero, anyTypes, unexported, replaced bool
}

// zoneNames name the time-zone relaxations.
var zoneNames = []string{"", "monotonic", "offset", NormUTC}

// precisions are the time precisions tried, finest first.
var precisions = []time.Duration{0, time.Microsecond, time.Millisecond, time.Second}

// relaxations lists every set, fewest relaxations first, the time ones
// before the others where they tie.
var relaxations = func() []relaxation {
	var out []relaxation
	for flags := range 32 {
		for z := range zoneNames {
			for _, p := range precisions {
				out = append(out, relaxation{zone: z, prec: p,
					nilEmpty: flags&1 != 0, nilZero: flags&2 != 0, anyTypes: flags&4 != 0,
					unexported: flags&8 != 0, replaced: flags&16 != 0})
			}
		}
	}
	cost := func(r relaxation) int {
		n := 0
		for _, b := range []bool{r.zone > 0, r.prec > 0, r.nilEmpty, r.nilZero, r.anyTypes, r.unexported, r.replaced} {
			if b {
				n++
			}
		}
		return n
	}
	// A stable insertion sort by cost keeps the enumeration order within
	// a cost.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && cost(out[j]) < cost(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}()

// name is the normalisation's name in a cell: "UTC", "1ms", "nil≡empty",
// joined with "," when several were needed.
func (r relaxation) name() string {
	var parts []string
	if r.zone > 0 {
		parts = append(parts, zoneNames[r.zone])
	}
	if r.prec > 0 {
		parts = append(parts, shortDuration(r.prec))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{r.nilEmpty, NormNilEmpty}, {r.nilZero, NormNilZero}, {r.anyTypes, NormAnyTypes}, {r.unexported, NormUnexported}, {r.replaced, NormReplaced}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, ",")
}

func shortDuration(d time.Duration) string {
	switch d {
	case time.Microsecond:
		return "1µs"
	case time.Millisecond:
		return "1ms"
	case time.Second:
		return "1s"
	}
	return d.String()
}

// The normalisations, as cells and Derive name them.
const (
	NormUTC        = "UTC"
	NormNilEmpty   = "nil≡empty"
	NormNilZero    = "nil≡zero-pointer"
	NormAnyTypes   = "any-types"
	NormReplaced   = "U+FFFD"
	NormUnexported = "unexported-dropped"
)

// options returns the go-cmp options of r.
func (r relaxation) options() cmp.Options {
	opts := cmp.Options{
		cmp.Exporter(func(reflect.Type) bool { return true }),
		cmp.Comparer(func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }),
		cmp.Comparer(func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) || a != a && b != b }),
		cmp.Comparer(func(a, b *big.Int) bool { return a == nil && b == nil || a != nil && b != nil && a.Cmp(b) == 0 }),
		cmp.Comparer(r.timesEqual),
	}
	if r.nilEmpty {
		opts = append(opts, cmpopts.EquateEmpty())
	}
	if r.nilZero {
		opts = append(opts, cmp.FilterPath(func(p cmp.Path) bool {
			x, y := p.Last().Values()
			return x.IsValid() && y.IsValid() && x.Kind() == reflect.Pointer && nilAndZero(x, y)
		}, cmp.Ignore()))
	}
	if r.anyTypes {
		opts = append(opts, cmp.FilterPath(func(p cmp.Path) bool {
			return p.Last().Type() != nil && p.Last().Type().Kind() == reflect.Interface
		}, cmp.Transformer("canonical", canonical)))
	}
	if r.unexported {
		opts = append(opts, cmp.FilterPath(func(p cmp.Path) bool {
			sf, ok := p.Last().(cmp.StructField)
			return ok && !token(sf.Name()) && hasExported(p.Index(-2).Type())
		}, cmp.Ignore()))
	}
	if r.replaced {
		// Only invalid text is transformed, so that nil and empty bytes
		// stay for EquateEmpty to judge.
		opts = append(opts,
			cmp.FilterValues(func(a, b string) bool { return !utf8.ValidString(a) || !utf8.ValidString(b) },
				cmp.Transformer("ToValidUTF8", func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") })),
			cmp.FilterValues(func(a, b []byte) bool { return !utf8.Valid(a) || !utf8.Valid(b) },
				cmp.Transformer("BytesToValidUTF8", func(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") })))
	}
	return opts
}

// hasExported reports whether struct type t has an exported field. The
// state of a struct without one (a type that encodes itself with a
// Marshaler) is never a dropped unexported field.
func hasExported(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		if t.Field(i).IsExported() {
			return true
		}
	}
	return false
}

// token reports whether a field name is exported.
func token(name string) bool { return name != "" && strings.ToUpper(name[:1]) == name[:1] }

func nilAndZero(x, y reflect.Value) bool {
	if x.IsNil() == y.IsNil() {
		return false
	}
	if x.IsNil() {
		x, y = y, x
	}
	return x.Elem().IsZero()
}

// timesEqual compares two times as strictly as r allows.
func (r relaxation) timesEqual(a, b time.Time) bool {
	if r.prec > 0 {
		if !a.Truncate(r.prec).Equal(b.Truncate(r.prec)) && !a.Round(r.prec).Equal(b.Round(r.prec)) {
			return false
		}
	} else if !a.Equal(b) {
		return false
	}
	_, ao := a.Zone()
	_, bo := b.Zone()
	switch r.zone {
	case 0:
		return ao == bo && a.Location().String() == b.Location().String() && (a == a.Round(0)) == (b == b.Round(0))
	case 1:
		return ao == bo && a.Location().String() == b.Location().String()
	case 2:
		return ao == bo
	}
	return true
}

// canonical maps a value held in an interface to its content with Go types
// forgotten: a number to its exact decimal, a map to map[string]any, a
// list to []any.
func canonical(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "number " + strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "number " + strconv.FormatUint(rv.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return "number " + strconv.FormatInt(int64(f), 10)
		}
		return "number " + strconv.FormatFloat(f, 'g', -1, 64)
	case reflect.String:
		return rv.String()
	case reflect.Map:
		m := map[string]any{}
		for it := rv.MapRange(); it.Next(); {
			m[fmt.Sprint(canonical(it.Key().Interface()))] = canonical(it.Value().Interface())
		}
		return m
	case reflect.Slice, reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		l := make([]any, rv.Len())
		for i := range l {
			l[i] = canonical(rv.Index(i).Interface())
		}
		return l
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return canonical(rv.Elem().Interface())
	}
	return v
}

// strictest and loosest are the first and the last sets tried.
var (
	strictest = relaxations[0]
	loosest   = relaxations[len(relaxations)-1]
)

// maxDiff is the most of a diff a cell keeps.
const maxDiff = 1500

// compare returns "" and "" if want and got are equal; the normalisation
// that makes them equal and ""; or "" and the diff (-want +got).
func compare(want, got any) (norm, diff string) {
	defer func() {
		if e := recover(); e != nil {
			norm, diff = "", fmt.Sprintf("comparing: %v", e)
		}
	}()
	if cmp.Equal(want, got, strictest.options()) {
		return "", ""
	}
	if !cmp.Equal(want, got, loosest.options()) {
		return "", truncate(cmp.Diff(want, got, strictest.options()), maxDiff)
	}
	for _, r := range relaxations[1:] {
		if cmp.Equal(want, got, r.options()) {
			return r.name(), ""
		}
	}
	return "", truncate(cmp.Diff(want, got, strictest.options()), maxDiff)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n... (truncated)"
}
