package verify

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// A walker compares two values of one type under rules, depth first, with
// a stack of its own: a value nested a million levels deep costs the
// walker memory in proportion, never the goroutine's stack. Pointers,
// maps and slices met again below a fixed depth are taken as equal the
// second time, so that a cycle ends.
type walker struct {
	r       rules
	stack   []frame
	visited map[visit]bool
	// limit is how many differences to collect before stopping; explain
	// asks for paths, map keys in a stable order and each difference in
	// words (diffs).
	limit   int
	explain bool
	found   int
	diffs   []string
}

// A frame is a pair of composite values whose children are being
// compared: the fields of a struct, the elements of a slice or array, the
// entries of a map, or the one value a pointer points at.
type frame struct {
	a, b reflect.Value
	kind reflect.Kind // Struct, Slice (slices and arrays), Map or Pointer
	i, n int          // the next child, and how many there are
	keys []reflect.Value
	// fields and skip are a struct's: its fields, and whether to skip
	// the unexported ones.
	fields []field
	skip   bool
	at     step // how the frame's values were reached from its parent's
}

// A step is one element of a path: a field, an index, a map key, or none
// (through a pointer or an interface).
type step struct {
	kind byte // 'f', 'i', 'k' or 0
	i    int
	name string
	key  reflect.Value
}

type visit struct {
	a, b unsafe.Pointer
	t    reflect.Type
}

// visitDepth is the depth below which pointers, maps and slices are
// remembered: a cycle goes deeper than any value does in a few laps, and
// a value without one is not slowed down by the bookkeeping.
const visitDepth = 32

var (
	timeType   = reflect.TypeFor[time.Time]()
	numberType = reflect.TypeFor[number]()
)

// run compares a and b, which have the same type.
func (w *walker) run(a, b reflect.Value) {
	w.pair(a, b, step{})
	for len(w.stack) > 0 && w.found < w.limit {
		f := &w.stack[len(w.stack)-1]
		if f.i >= f.n {
			w.stack = w.stack[:len(w.stack)-1]
			continue
		}
		i := f.i
		f.i++
		switch f.kind {
		case reflect.Pointer:
			w.pair(f.a, f.b, step{})
		case reflect.Struct:
			sf := &f.fields[i]
			if f.skip && !sf.exported {
				continue
			}
			w.pair(f.a.Field(i), f.b.Field(i), step{kind: 'f', name: sf.name})
		case reflect.Slice:
			w.pair(f.a.Index(i), f.b.Index(i), step{kind: 'i', i: i})
		case reflect.Map:
			k := f.keys[i]
			ga := f.b.MapIndex(k)
			if !ga.IsValid() {
				w.differ(step{kind: 'k', key: k}, f.a.MapIndex(k), ga)
				continue
			}
			w.pair(f.a.MapIndex(k), ga, step{kind: 'k', key: k})
		}
	}
}

// push starts comparing the children of a composite pair.
func (w *walker) push(f frame) { w.stack = append(w.stack, f) }

// seen reports whether the pair of references a and b was met before
// below visitDepth, and remembers it.
func (w *walker) seen(a, b reflect.Value) bool {
	if len(w.stack) < visitDepth {
		return false
	}
	if w.visited == nil {
		w.visited = map[visit]bool{}
	}
	v := visit{a.UnsafePointer(), b.UnsafePointer(), a.Type()}
	if w.visited[v] {
		return true
	}
	w.visited[v] = true
	return false
}

// differ records that a and b, reached by st, differ.
func (w *walker) differ(st step, a, b reflect.Value) {
	w.found++
	if w.explain {
		w.diffs = append(w.diffs, fmt.Sprintf("%s: -%s +%s", w.path(st), short(a, 0), short(b, 0)))
	}
}

// differText records a difference described in words.
func (w *walker) differText(st step, want, got string) {
	w.found++
	if w.explain {
		w.diffs = append(w.diffs, fmt.Sprintf("%s: -%s +%s", w.path(st), want, got))
	}
}

// pair compares a and b, values of one type reached by st: leaves at
// once, composites by pushing a frame.
func (w *walker) pair(a, b reflect.Value, st step) {
	t := a.Type()
	switch t {
	case timeType:
		if ta, ok := timeOf(a); ok {
			if tb, ok := timeOf(b); ok {
				if !w.r.timesEqual(ta, tb) {
					w.differ(st, a, b)
				}
				return
			}
		}
	case bigInt, bigFloat, bigRat:
		if eq, ok := bigEqual(a, b); ok {
			if !eq {
				w.differ(st, a, b)
			}
			return
		}
	}
	switch a.Kind() {
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			w.differ(st, a, b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			w.differ(st, a, b)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			w.differ(st, a, b)
		}
	case reflect.Float32, reflect.Float64:
		if !w.r.floatsEqual(a.Float(), b.Float(), t.Bits()) {
			w.differ(st, a, b)
		}
	case reflect.Complex64, reflect.Complex128:
		ca, cb := a.Complex(), b.Complex()
		if !w.r.floatsEqual(real(ca), real(cb), t.Bits()/2) || !w.r.floatsEqual(imag(ca), imag(cb), t.Bits()/2) {
			w.differ(st, a, b)
		}
	case reflect.String:
		if t == numberType {
			if !w.r.numbersEqual(number(a.String()), number(b.String())) {
				w.differ(st, a, b)
			}
			return
		}
		if sa, sb := a.String(), b.String(); sa != sb && (!w.r.text || asText(sa) != asText(sb)) {
			w.differ(st, a, b)
		}
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() && !(w.r.nilZero && (a.IsNil() && b.Elem().IsZero() || b.IsNil() && a.Elem().IsZero())) {
				w.differ(st, a, b)
			}
			return
		}
		if a.Pointer() == b.Pointer() || w.seen(a, b) {
			return
		}
		w.push(frame{a: a.Elem(), b: b.Elem(), kind: reflect.Pointer, n: 1, at: st})
	case reflect.Interface:
		if w.r.ifaces {
			a, b = canonical(a), canonical(b)
		} else {
			a, b = elem(a), elem(b)
		}
		switch {
		case !a.IsValid() || !b.IsValid():
			if a.IsValid() != b.IsValid() && !(w.r.nilEmpty && (empty(a) || empty(b))) {
				w.differ(st, a, b)
			}
		case a.Type() != b.Type():
			w.differText(st, a.Type().String()+"("+short(a, 1)+")", b.Type().String()+"("+short(b, 1)+")")
		default:
			w.pair(a, b, st) // a concrete value: no interface again
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() && !(w.r.nilEmpty && a.Len() == 0 && b.Len() == 0) {
			w.differ(st, a, b)
			return
		}
		if t.Elem().Kind() == reflect.Uint8 {
			pa, pb := a.Bytes(), b.Bytes()
			if !bytes.Equal(pa, pb) && (!w.r.text || asText(string(pa)) != asText(string(pb))) {
				w.differ(st, a, b)
			}
			return
		}
		n := a.Len()
		if !w.explain && n == b.Len() && n > 0 && scalar(t.Elem().Kind()) {
			// Elements of a scalar kind compare in place, as leaves,
			// when no path is asked for.
			for i := range n {
				w.pair(a.Index(i), b.Index(i), step{kind: 'i', i: i})
				if w.found >= w.limit {
					return
				}
			}
			return
		}
		if n != b.Len() {
			w.differText(st, fmt.Sprintf("len %d", a.Len()), fmt.Sprintf("len %d", b.Len()))
			if !w.explain {
				return
			}
			n = min(n, b.Len())
		} else if n == 0 || a.Pointer() == b.Pointer() {
			return
		}
		if w.seen(a, b) {
			return
		}
		w.push(frame{a: a, b: b, kind: reflect.Slice, n: n, at: st})
	case reflect.Array:
		w.push(frame{a: a, b: b, kind: reflect.Slice, n: a.Len(), at: st})
	case reflect.Map:
		if a.IsNil() != b.IsNil() && !(w.r.nilEmpty && a.Len() == 0 && b.Len() == 0) {
			w.differ(st, a, b)
			return
		}
		if a.Len() == 0 && b.Len() == 0 || a.Pointer() == b.Pointer() || w.seen(a, b) {
			return
		}
		var extra []reflect.Value // keys of b that a lacks
		if a.Len() != b.Len() {
			for _, k := range b.MapKeys() {
				if !a.MapIndex(k).IsValid() {
					extra = append(extra, k)
				}
			}
			if !w.explain && len(extra) > 0 {
				w.found++
				return
			}
		}
		keys := a.MapKeys()
		w.sortKeys(keys)
		w.push(frame{a: a, b: b, kind: reflect.Map, n: len(keys), keys: keys, at: st})
		// Reported with the frame pushed, so that their paths go through
		// the map. The keys of a that b lacks are found as a's entries
		// are compared.
		w.sortKeys(extra)
		for _, k := range extra {
			w.differ(step{kind: 'k', key: k}, reflect.Value{}, b.MapIndex(k))
		}
	case reflect.Struct:
		si := structOf(t)
		w.push(frame{a: a, b: b, kind: reflect.Struct, n: len(si.fields), fields: si.fields, skip: w.r.unexported && si.exported, at: st})
	case reflect.Func:
		if !a.IsNil() || !b.IsNil() {
			w.differText(st, "func", "func")
		}
	default: // Chan, UnsafePointer
		if a.Pointer() != b.Pointer() {
			w.differ(st, a, b)
		}
	}
}

// scalar reports whether values of kind k are leaves.
func scalar(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

// A field is a struct field as the walk needs it.
type field struct {
	name     string
	exported bool
}

// A structInfo is what the walk needs of a struct type, computed once.
type structInfo struct {
	fields   []field
	exported bool // some field is exported
}

var structs sync.Map // reflect.Type -> *structInfo

// structOf returns the fields of struct type t.
func structOf(t reflect.Type) *structInfo {
	if si, ok := structs.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{fields: make([]field, t.NumField())}
	for i := range si.fields {
		sf := t.Field(i)
		si.fields[i] = field{name: sf.Name, exported: sf.IsExported()}
		si.exported = si.exported || sf.IsExported()
	}
	structs.Store(t, si)
	return si
}

// sortKeys puts map keys in the order of their text when explaining, so
// that a diff lists them the same way every time.
func (w *walker) sortKeys(keys []reflect.Value) {
	if w.explain && len(keys) > 1 {
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(keyText(x), keyText(y)) })
	}
}

// elem returns the value an interface holds, or the zero Value for nil.
func elem(v reflect.Value) reflect.Value {
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// empty reports whether v is an empty slice or map.
func empty(v reflect.Value) bool {
	return v.IsValid() && (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0
}

// floatsSame reports whether two floats are the same number: the same
// bits (so -0 is not 0), or both NaN.
func floatsSame(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// readable returns v as a value Interface may be called on: itself, or,
// for a value reached through an unexported field, the same memory
// through an exported view (as go-cmp's Exporter does). It reports false
// for an unaddressable value read through an unexported field.
func readable(v reflect.Value) (reflect.Value, bool) {
	if v.CanInterface() {
		return v, true
	}
	if v.CanAddr() {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem(), true
	}
	return v, false
}

// timeOf returns the time.Time v holds, if it can be read.
func timeOf(v reflect.Value) (time.Time, bool) {
	r, ok := readable(v)
	if !ok {
		return time.Time{}, false
	}
	return r.Interface().(time.Time), true
}

var (
	bigInt   = reflect.TypeFor[big.Int]()
	bigFloat = reflect.TypeFor[big.Float]()
	bigRat   = reflect.TypeFor[big.Rat]()
)

// bigEqual compares two math/big numbers by value (their Cmp), not by
// their internal words. ok is false when they cannot be read.
func bigEqual(a, b reflect.Value) (eq, ok bool) {
	ra, oka := readable(a)
	rb, okb := readable(b)
	if !oka || !okb || !ra.CanAddr() || !rb.CanAddr() {
		return false, false
	}
	switch x := ra.Addr().Interface().(type) {
	case *big.Int:
		return x.Cmp(rb.Addr().Interface().(*big.Int)) == 0, true
	case *big.Float:
		return x.Cmp(rb.Addr().Interface().(*big.Float)) == 0, true
	case *big.Rat:
		return x.Cmp(rb.Addr().Interface().(*big.Rat)) == 0, true
	}
	return false, false
}

// maxPath is how many steps of a path a diff shows: the first few and the
// last, with "…" between.
const maxPath = 12

// path renders the path to the child st of the frame on top of the stack.
func (w *walker) path(st step) string {
	var steps []step
	for _, f := range w.stack {
		if f.at.kind != 0 {
			steps = append(steps, f.at)
		}
	}
	if st.kind != 0 {
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		return "value"
	}
	var b strings.Builder
	for i, s := range steps {
		if len(steps) > maxPath && i >= 4 && i < len(steps)-(maxPath-4) {
			if i == 4 {
				fmt.Fprintf(&b, "…(%d steps)…", len(steps)-maxPath)
			}
			continue
		}
		switch s.kind {
		case 'f':
			b.WriteString("." + s.name)
		case 'i':
			b.WriteString("[" + strconv.Itoa(s.i) + "]")
		case 'k':
			b.WriteString("[" + short(s.key, 1) + "]")
		}
	}
	return b.String()
}

// maxShort is the most of a string or byte slice short shows.
const maxShort = 80

// short renders v in a line, without descending into composites (a value
// nested deeply stays a line): scalars in full, a string quoted, a
// composite as its type and length.
func short(v reflect.Value, depth int) string {
	if !v.IsValid() {
		return "(missing)"
	}
	t := v.Type()
	if t == timeType {
		if tm, ok := timeOf(v); ok {
			s := tm.Format(time.RFC3339Nano) + " " + tm.Location().String()
			if tm != tm.Round(0) {
				s += " (monotonic)"
			}
			return s
		}
	}
	if t == numberType {
		return "number " + v.String()
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return "nil"
		}
		if depth > 2 {
			return t.String()
		}
		s := short(v.Elem(), depth+1)
		if v.Kind() == reflect.Pointer {
			return "&" + s
		}
		return v.Elem().Type().String() + "(" + s + ")"
	case reflect.String:
		return quote(v.String())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, t.Bits())
	case reflect.Complex64, reflect.Complex128:
		return strconv.FormatComplex(v.Complex(), 'g', -1, t.Bits())
	case reflect.Slice, reflect.Map:
		switch {
		case v.IsNil():
			return t.String() + "(nil)"
		case v.Len() == 0:
			return t.String() + "{}"
		case v.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
			return t.String() + "(" + quote(string(v.Bytes())) + ")"
		}
		return fmt.Sprintf("%s{len %d}", t, v.Len())
	}
	return t.String() + "{…}"
}

// quote quotes s, cut to maxShort bytes.
func quote(s string) string {
	if len(s) > maxShort {
		return strconv.Quote(s[:maxShort]) + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return strconv.Quote(s)
}
