package dataset

import (
	"fmt"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// sameInSiblings lists, per dataset, the values nested in an element (paths
// relative to it) that may be equal in two sibling elements and in two
// builds. Nothing else may.
var sameInSiblings = map[string][]string{
	// Seed 003's message has no B1: every message keeps it nil.
	"game":      {".B1"},
	"gameround": {".Msg.B1"},
	// The verification datasets exist to carry a nil and an empty slice or
	// map in every build: codecs' nil-empty losses are checked on them.
	// (Their other nil, zero and extreme values are pointers to scalars,
	// scalars or bytes, which these rules do not compare.)
	"edge":         {".NilSlice", ".EmptySlice"},
	"edgeportable": {".NilSlice", ".EmptySlice"},
	"edgemaps":     {".NilMap", ".EmptyMap"},
}

// ownElements lists, per dataset, the containers (paths with indices and
// keys dropped) whose elements may equal elements of other containers of
// the same build. They must still differ from their siblings, from the
// elements of the containers at the same path, and from other builds'.
var ownElements = map[string][]string{
	// Seed 003 gives Bmap1 the same three Bs as Barr.
	"game":      {".Bmap1"},
	"gameround": {".Msg.Bmap1"},
}

// TestBuilds checks every build of every dataset in every shape: two
// builds are equal, ValueAt(s, 0) is Value(s), and ValueAt(s, 1) differs
// from it. Walking both builds (pointers followed) it checks that
//
//   - every element of every slice, array and map is non-zero and differs
//     from its siblings;
//   - every value nested in an element (through fields and pointers, up to
//     the next container) differs from the value at the same place in each
//     sibling: nested values vary with the element;
//   - the elements of all containers of both builds that share an element
//     type are all distinct (the Bigs of Huge's four slices, of the Huges
//     in a ComplexMap, of builds 0 and 1);
//
// and the two builds, taken as siblings, pass the first two rules too.
// Strings, []byte, time.Time and pointers to them or to numbers are
// scalars: their contents are not elements. Values are compared as
// reflect.DeepEqual compares them.
func TestBuilds(t *testing.T) {
	for _, d := range All {
		for _, s := range d.Shapes() {
			t.Run(d.Name+"/"+string(s), func(t *testing.T) {
				t.Parallel()
				var b0, b1 any
				if d.IsXL(s) {
					// The first element of each build, not 10 (690,000
					// Bigs). Two elements side by side, generator elements
					// 0 and 1, are the two builds of the single shape.
					b0, b1 = d.build(s, 0, 1), d.build(s, d.SliceLen, 1)
				} else {
					b0 = mustValueAt(t, d, s, 0)
					if v, _ := d.Value(s); !deepEqual(b0, v) {
						t.Fatal("Value(s) differs from ValueAt(s, 0), or two builds differ")
					}
					b1 = mustValueAt(t, d, s, 1)
					if again := mustValueAt(t, d, s, 1); !deepEqual(b1, again) {
						t.Fatal("two builds of ValueAt(s, 1) differ")
					}
					if s != Single {
						if n := reflect.ValueOf(b1).Elem().Len(); n != d.SliceLen || reflect.ValueOf(b0).Elem().Len() != n {
							t.Errorf("%d and %d elements, want %d", reflect.ValueOf(b0).Elem().Len(), n, d.SliceLen)
						}
					}
				}
				if reflect.TypeOf(b0) != reflect.TypeOf(b1) {
					t.Fatalf("ValueAt(s, 1) is a %T, ValueAt(s, 0) a %T", b1, b0)
				}
				if deepEqual(b0, b1) {
					t.Fatal("ValueAt(s, 1) equals ValueAt(s, 0)")
				}
				if d.Corpus != nil {
					// A real document repeats values as real data does:
					// the rules below are for the generators.
					return
				}
				w := newWalker(t, d.Name)
				v0, v1 := reflect.ValueOf(b0), reflect.ValueOf(b1)
				w.path = []segment{{name: "build 0"}}
				h0, subs0 := w.walk(v0)
				w.path = []segment{{name: "build 1"}}
				h1, subs1 := w.walk(v1)
				w.path = []segment{{name: "builds"}}
				w.container(v0.Type(), []reflect.Value{v0, v1}, []uint64{h0, h1}, [][]sub{subs0, subs1}, nil)
				if w.errs > maxErrors {
					t.Errorf("and %d more", w.errs-maxErrors)
				}
			})
		}
	}
}

// deepEqual is reflect.DeepEqual for the datasets' values, which hold no
// cycles and no interfaces, funcs or channels: without DeepEqual's map of
// the pointers it has visited, it is several times faster on the large
// builds.
func deepEqual(a, b any) bool {
	return equal(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equal(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return a.Pointer() == b.Pointer() || equal(a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == timeType {
			if a.Field(2).Pointer() != b.Field(2).Pointer() { // different *Location
				return reflect.DeepEqual(a.Interface(), b.Interface())
			}
			return a.Field(0).Uint() == b.Field(0).Uint() && a.Field(1).Int() == b.Field(1).Int()
		}
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Type().Elem().Kind() == reflect.Uint8 {
			return string(a.Bytes()) == string(b.Bytes())
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if eb := b.MapIndex(k); !eb.IsValid() || !equal(a.MapIndex(k), eb) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	panic("deepEqual: a " + a.Kind().String())
}

func mustValueAt(t *testing.T, d *Dataset, s Shape, k int) any {
	t.Helper()
	v, err := d.ValueAt(s, k)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValueAtErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Shape
		k    int
		want string
	}{
		{"int64", Slice, 0, `dataset int64 has no shape "slice"`},
		{"int64", Single, -1, "dataset int64: build -1: builds are numbered from 0"},
		{"tiny", Slice, -2, "dataset tiny: build -2"},
	} {
		d, _ := Lookup(tc.name)
		if _, err := d.ValueAt(tc.s, tc.k); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s.ValueAt(%s, %d) = %v, want %q", tc.name, tc.s, tc.k, err, tc.want)
		}
	}
}

// TestWalker checks that the rules catch what they are for.
func TestWalker(t *testing.T) {
	type pair struct{ A, B Tiny }
	a1 := NewA(1)
	a1.Bmap1["11"] = a1.Barr[1]
	for _, tc := range []struct {
		name    string
		dataset string // for the exemptions
		v       any
		want    string // "" for no failure
	}{
		{"distinct", "", &[]Big{NewBig(0), NewBig(1)}, ""},
		{"repeated element", "", &[]Tiny{NewTiny(0), NewTiny(1), NewTiny(0)}, "v[2] equals v[0]"},
		{"zero element", "", &[]*Tiny{{ID: 1}, {}}, "v[1] is a zero value"},
		{"nil element", "", &map[string]*Tiny{"a": nil}, `v["a"] is a zero value`},
		{"repeated nested value", "", &[]Big{NewBig(0), func() Big { b := NewBig(1); b.Medium = NewMedium(0); return b }()}, "v[1].Medium equals v[0].Medium"},
		{"repeated, not in a container", "", &[]pair{{NewTiny(0), NewTiny(1)}, {NewTiny(2), NewTiny(0)}}, ""}, // only the same places in siblings are compared
		{"repeated across slices", "", &Huge{BigSlice: []Big{NewBig(0)}, BiggerSlice: []Big{NewBig(0)}}, "v.BiggerSlice[0] equals v.BigSlice[0]"},
		{"repeated in a map", "", &map[string]string{"a": "x", "b": "x"}, "equals"},
		{"nil in siblings", "", &[]A{NewA(0), NewA(1)}, "v[1].B1 equals v[0].B1"},
		{"nil in siblings, exempt", "game", &[]A{NewA(0), NewA(1)}, ""},
		{"Bmap1 repeats Barr", "", &[]A{NewA(0), NewA(1)}, `.Bmap1["11"] equals`},
		{"Bmap1 repeats a sibling", "game", &[]A{NewA(0), a1}, `equals v[1].Bmap1["`},
		{"Bmap1 repeats Barr, exempt", "game", &[]A{NewA(0), NewA(1)}, ""},
	} {
		rec := &recorder{}
		w := newWalker(rec, tc.dataset)
		w.path = []segment{{name: "v"}}
		w.walk(reflect.ValueOf(tc.v))
		got := strings.Join(rec.errs, "\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestEqual checks deepEqual against reflect.DeepEqual.
func TestEqual(t *testing.T) {
	e, e2 := NewEdge(0), NewEdge(0)
	m, m2 := NewEdgeMaps(0), NewEdgeMaps(0)
	b := NewBig(0)
	b2 := b
	mp := *b.MediumPtr
	b2.MediumPtr = &mp
	for i, tc := range [][2]any{
		{&e, &e2},
		{&e, func() *Edge { v := NewEdge(0); v.EmptySlice = nil; return &v }()},
		{&e, func() *Edge { v := NewEdge(0); v.ZeroPtr = nil; return &v }()},
		{&e, func() *Edge { v := NewEdge(0); v.Zoned = v.Zoned.UTC(); return &v }()},
		{&e, func() *Edge { v := NewEdge(0); v.Zoned = v.Zoned.In(time.FixedZone("", 5*3600+1800)); return &v }()},
		{&e, func() *Edge { v := NewEdge(0); v.Bytes = append(v.Bytes, 0); return &v }()},
		{&m, &m2},
		{&m, func() *EdgeMaps { v := NewEdgeMaps(0); v.EmptyMap = nil; return &v }()},
		{&m, func() *EdgeMaps { v := NewEdgeMaps(0); v.Full["c"] = 3; return &v }()},
		{&b, &b2},
		{&b, func() *Big { v := NewBig(0); v.MediumPtr.Tiny.ID++; return &v }()},
		{&[]Big{b}, &[]Big{b2}},
		{&[]Big{b}, &[]Big{b, b}},
	} {
		if got, want := deepEqual(tc[0], tc[1]), reflect.DeepEqual(tc[0], tc[1]); got != want {
			t.Errorf("#%d: deepEqual = %v, reflect.DeepEqual %v", i, got, want)
		}
	}
}

type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// A walker checks the rules of TestBuilds over the values it walks.
type walker struct {
	t interface {
		Helper()
		Errorf(string, ...any)
	}
	dataset string
	path    []segment                     // where the walk is
	seen    map[seenKey]map[uint64]seenAt // container elements by type, then hash
	more    map[uint64][]seenAt           // elements whose hash is another's in seen
	errs    int
	plans   map[reflect.Type]*plan
}

// A segment is one step of a path: a field name (".Name") or an index.
type segment struct {
	name string
	i    int
	key  reflect.Value // a map key, else invalid
}

type seenKey struct {
	typ reflect.Type
	own string // the container's path, for ownElements; "" for the others
}

// A seenAt is an element of a container.
type seenAt struct {
	c *containerAt
	i int
}

type containerAt struct {
	path  string
	keys  []reflect.Value // a map's, else nil
	elems []reflect.Value
}

func (c *containerAt) name(i int) string {
	if c.keys != nil {
		return fmt.Sprintf("%s[%#v]", c.path, c.keys[i])
	}
	return fmt.Sprintf("%s[%d]", c.path, i)
}

// A sub is a composite value nested in another, at one of its type's
// plan's rels; ok is false where a nil pointer leaves no value.
type sub struct {
	h  uint64
	v  reflect.Value
	ok bool
}

// A plan lists the places of the composite values nested in a value of a
// type, up to the next container.
type plan struct {
	rels   []string // paths from the value, parents first
	fields []field  // of a struct
}

type field struct {
	name string // ".Name"
	at   int    // the field's index in rels; -1 if it is a scalar
}

func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{}
	switch {
	case t.Kind() == reflect.Pointer:
		p = planFor(t.Elem())
	case t.Kind() == reflect.Struct && t != timeType:
		for i := range t.NumField() {
			f := field{name: "." + t.Field(i).Name, at: -1}
			if ft := t.Field(i).Type; composite(ft) {
				f.at = len(p.rels)
				p.rels = append(p.rels, f.name)
				for _, r := range planFor(ft).rels {
					p.rels = append(p.rels, f.name+r)
				}
			}
			p.fields = append(p.fields, f)
		}
	}
	plans.Store(t, p)
	return p
}

var plans sync.Map // reflect.Type to *plan

// plan is planFor, with a cache of the walker's own.
func (w *walker) plan(t reflect.Type) *plan {
	p := w.plans[t]
	if p == nil {
		p = planFor(t)
		w.plans[t] = p
	}
	return p
}

func newWalker(t interface {
	Helper()
	Errorf(string, ...any)
}, dataset string) *walker {
	return &walker{t: t, dataset: dataset, seen: map[seenKey]map[uint64]seenAt{}, more: map[uint64][]seenAt{}, plans: map[reflect.Type]*plan{}}
}

// maxErrors is how many failures a walker reports in full.
const maxErrors = 10

func (w *walker) errorf(format string, args ...any) {
	w.t.Helper()
	if w.errs++; w.errs <= maxErrors {
		w.t.Errorf(format, args...)
	}
}

// pathString returns the path of the walk; indices and keys are left out
// if bare.
func (w *walker) pathString(bare bool) string {
	var b strings.Builder
	for _, s := range w.path {
		switch {
		case s.name != "":
			b.WriteString(s.name)
		case bare:
		case s.key.IsValid():
			fmt.Fprintf(&b, "[%#v]", s.key)
		default:
			fmt.Fprintf(&b, "[%d]", s.i)
		}
	}
	return b.String()
}

var (
	seed     = maphash.MakeSeed()
	timeType = reflect.TypeFor[time.Time]()
)

func mix(h, x uint64) uint64 {
	h ^= x + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	return h * 0xbf58476d1ce4e5b9
}

// composite reports whether values of type t are compared as nested
// values: structs other than time.Time, containers, and pointers to them.
func composite(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer:
		return composite(t.Elem())
	case reflect.Struct:
		return t != timeType
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8
	case reflect.Array, reflect.Map:
		return true
	}
	return false
}

// walk checks the containers in v and returns a hash of v (equal for
// reflect.DeepEqual values) and the composite values nested in v at the
// rels of its type's plan (nil if there are none or v is a nil pointer).
func (w *walker) walk(v reflect.Value) (uint64, []sub) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return 1, nil
		}
		h, subs := w.walk(v.Elem())
		return mix(2, h), subs
	case reflect.Struct:
		if v.Type() == timeType {
			// wall and ext, not loc: equal times hash alike; Interface,
			// which would give the time itself, allocates.
			return mix(mix(13, v.Field(0).Uint()), uint64(v.Field(1).Int())), nil
		}
		p := w.plan(v.Type())
		var subs []sub
		if len(p.rels) > 0 {
			subs = make([]sub, len(p.rels))
		}
		h := uint64(3)
		for i, f := range p.fields {
			w.path = append(w.path, segment{name: f.name})
			fh, fsubs := w.walk(v.Field(i))
			w.path = w.path[:len(w.path)-1]
			h = mix(h, fh)
			if f.at >= 0 {
				subs[f.at] = sub{fh, v.Field(i), true}
				copy(subs[f.at+1:], fsubs)
			}
		}
		return h, subs
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return mix(4, maphash.Bytes(seed, v.Bytes())), nil
		}
		elems := make([]reflect.Value, v.Len())
		hs := make([]uint64, v.Len())
		subs := make([][]sub, v.Len())
		h := uint64(5)
		for i := range v.Len() {
			elems[i] = v.Index(i)
			w.path = append(w.path, segment{i: i})
			hs[i], subs[i] = w.walk(elems[i])
			w.path = w.path[:len(w.path)-1]
			h = mix(h, hs[i])
		}
		w.container(v.Type().Elem(), elems, hs, subs, nil)
		return h, nil
	case reflect.Map:
		keys := v.MapKeys()
		elems := make([]reflect.Value, len(keys))
		hs := make([]uint64, len(keys))
		subs := make([][]sub, len(keys))
		h := uint64(6)
		for i, k := range keys {
			kh, _ := w.walk(k)
			elems[i] = v.MapIndex(k)
			w.path = append(w.path, segment{key: k})
			hs[i], subs[i] = w.walk(elems[i])
			w.path = w.path[:len(w.path)-1]
			h += mix(kh, hs[i]) // in any order
		}
		w.container(v.Type().Elem(), elems, hs, subs, keys)
		return h, nil
	case reflect.String:
		return mix(7, maphash.String(seed, v.String())), nil
	case reflect.Bool:
		if v.Bool() {
			return 8, nil
		}
		return 9, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mix(10, uint64(v.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return mix(11, v.Uint()), nil
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if f == 0 {
			f = 0 // -0 == +0
		}
		return mix(12, math.Float64bits(f)), nil
	}
	w.errorf("%s: %s: a %s, which the walker does not know", w.dataset, w.pathString(false), v.Kind())
	return 0, nil
}

// container checks the elements, of type typ, of the container the walk is
// at; keys are a map's keys, nil for a slice.
func (w *walker) container(typ reflect.Type, elems []reflect.Value, hs []uint64, subs [][]sub, keys []reflect.Value) {
	w.t.Helper()
	c := &containerAt{path: w.pathString(false), keys: keys, elems: elems}
	for i, e := range elems {
		if e.IsZero() || e.Kind() == reflect.Pointer && e.Elem().IsZero() {
			w.errorf("%s: %s is a zero value", w.dataset, c.name(i))
		}
	}
	// Siblings, and the values at the same places in them.
	rels := append([]string{""}, w.plan(typ).rels...)
	at := func(i, r int) sub {
		if r == 0 {
			return sub{hs[i], elems[i], true}
		}
		if subs[i] == nil {
			return sub{}
		}
		return subs[i][r-1]
	}
	for r, rel := range rels {
		if slices.Contains(sameInSiblings[w.dataset], rel) {
			continue
		}
		first := make(map[uint64]int, len(elems))
		var more map[uint64][]int // elements whose hash is another's in first
	next:
		for i := range elems {
			s := at(i, r)
			if !s.ok {
				continue
			}
			j, ok := first[s.h]
			if !ok {
				first[s.h] = i
				continue
			}
			for _, j := range append([]int{j}, more[s.h]...) {
				if equal(s.v, at(j, r).v) {
					w.errorf("%s: %s%s equals %s%s: %s", w.dataset, c.name(i), rel, c.name(j), rel, short(s.v))
					continue next
				}
			}
			if more == nil {
				more = map[uint64][]int{}
			}
			more[s.h] = append(more[s.h], i)
		}
	}
	// Elements of the same type anywhere in the walk.
	key := seenKey{typ: typ}
	bare := w.pathString(true)
	for _, own := range ownElements[w.dataset] {
		if strings.HasSuffix(bare, own) {
			key.own = own
		}
	}
	m := w.seen[key]
	if m == nil {
		m = map[uint64]seenAt{}
		w.seen[key] = m
	}
next2:
	for i, e := range elems {
		first, ok := m[hs[i]]
		if !ok {
			m[hs[i]] = seenAt{c, i}
			continue
		}
		for _, at := range append([]seenAt{first}, w.more[hs[i]]...) {
			if equal(e, at.c.elems[at.i]) {
				if at.c != c { // else reported as siblings
					w.errorf("%s: %s equals %s: %s", w.dataset, c.name(i), at.c.name(at.i), short(e))
				}
				continue next2
			}
		}
		w.more[hs[i]] = append(w.more[hs[i]], seenAt{c, i})
	}
}

// short formats v for a message.
func short(v reflect.Value) string {
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	s := fmt.Sprintf("%+v", v.Interface())
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
