package hostile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

// A seedKind says which value a class starts from.
type seedKind int

const (
	seedDefault    seedKind = iota // a struct with a slice, a map and strings where the codec has one
	seedString                     // a value whose first string is the marker
	seedHugeString                 // a value whose first string is 32 MiB long
	seedBytes                      // a value whose first []byte is the marker
	seedArray                      // a slice of seedCount elements
	seedMap                        // a value whose first map holds the mapKeys
	seedGeneric                    // a map[string]any, which a decoder fills by recursion; else seedDefault
	seedAny                        // a map[string]any; nothing else
	seedNest                       // a dataset.Nest of nestDepths levels
)

// candidates lists, per seed kind, the dataset shapes to try in order: the
// first one the codec encodes is the seed.
var candidates = map[seedKind][]string{
	seedDefault:    {"complexdata/single", "user/slice", "tiny/single", "metric/slice", "int64/single"},
	seedString:     {"tiny/single", "user/single", "complexdata/single", "medium/single", "big/single"},
	seedHugeString: {"tiny/single", "user/single", "complexdata/single", "medium/single", "big/single"},
	seedBytes:      {"big/single", "edge/single", "edgeportable/single"},
	seedArray:      {"user/slice", "tiny/slice", "metric/slice"},
	seedMap:        {"edgemaps/single", "complexdata/single", "complexmap/single"},
}

// otherCandidates are the datasets other-type encodes, the first one
// that is not the seed's and that the codec encodes.
var otherCandidates = []string{"metric/single", "tiny/single", "user/single", "int64/single"}

// A seed is a value, the codec's Case for it and its valid encoding.
type seed struct {
	name  string // dataset/shape
	value any
	c     codec.Case
	valid []byte
	got   any // the value of the last input decoded, until it is checked
}

// newSeed returns the first candidate of kind k that info encodes, or
// nil when it encodes none (the class does not apply); its encoding is
// the canonical one when canon is set.
func newSeed(info codec.Info, k seedKind, quick, canon bool) *seed {
	switch k {
	case seedNest:
		return encodeSeed(info, "nest", dataset.NewNest(nestDepths), canon)
	case seedGeneric, seedAny:
		v := &map[string]any{"zz": []any{}}
		if s := encodeSeed(info, "map[string]any", v, canon); s != nil || k == seedAny {
			return s
		}
		k = seedDefault
	}
	for _, name := range candidates[k] {
		v, err := datasetValue(name)
		if err != nil {
			continue
		}
		if !shape(v, k, quick) {
			continue
		}
		trimMaps(reflect.ValueOf(v).Elem(), 1)
		if s := encodeSeed(info, name, v, canon); s != nil {
			return s
		}
	}
	return nil
}

// encodeSeed prepares and encodes v with info's codec, the canonical
// encoding when canon is set; nil on failure, a panic included (through
// the one guard, codec.GuardValue).
func encodeSeed(info codec.Info, name string, v any, canon bool) *seed {
	s, err := codec.GuardValue(func() (*seed, error) {
		c, err := info.New().Prepare(v)
		if err != nil {
			return nil, err
		}
		enc, err := c.Encode()
		if err != nil {
			return nil, err
		}
		valid := append([]byte(nil), enc...)
		if canon {
			key := fmt.Sprintf("%s %x", info.Name, sha256.Sum256(valid))
			if b, ok := canonCache.Load(key); ok {
				valid = b.([]byte)
			} else {
				// The seed map's keys say it holds two entries.
				valid = canonical(valid, c.Encode, bytes.Contains(valid, []byte(mapKeys[1])))
				if len(valid) <= sendLimit {
					canonCache.Store(key, valid)
				}
			}
		}
		return &seed{name: name, value: v, c: c, valid: valid}, nil
	})
	if err != nil {
		return nil
	}
	return s
}

// canonCache holds the canonical encodings computed in this process, by
// codec and the SHA-256 of a first encoding: a parent computes each once
// for the cells that share it.
var canonCache sync.Map

func datasetValue(name string) (any, error) {
	dn, sh, ok := strings.Cut(name, "/")
	if !ok {
		return nil, fmt.Errorf("hostile: bad dataset shape %q", name)
	}
	d, err := dataset.Lookup(dn)
	if err != nil {
		return nil, err
	}
	s, err := dataset.ParseShape(sh)
	if err != nil {
		return nil, err
	}
	return d.Value(s)
}

// shape makes v (a pointer) the seed of kind k, reporting whether it
// could.
func shape(v any, k seedKind, quick bool) bool {
	p := reflect.ValueOf(v).Elem()
	switch k {
	case seedString, seedHugeString:
		s := marker
		if k == seedHugeString {
			s = strings.Repeat("h", hugeString(quick))
		}
		f := find(p, func(t reflect.Type) bool { return t.Kind() == reflect.String })
		if !f.IsValid() {
			return false
		}
		f.SetString(s)
	case seedBytes:
		f := find(p, func(t reflect.Type) bool { return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 })
		if !f.IsValid() {
			return false
		}
		f.SetBytes([]byte(marker))
	case seedArray:
		if p.Kind() != reflect.Slice || p.Len() < int(seedCount) {
			return false
		}
		p.Set(p.Slice(0, int(seedCount)))
	case seedMap:
		// Only the map: the smallest reproducer carries nothing else.
		p.Set(reflect.Zero(p.Type()))
		f := find(p, func(t reflect.Type) bool { return t.Kind() == reflect.Map && t.Key().Kind() == reflect.String })
		if !f.IsValid() {
			return false
		}
		m := reflect.MakeMap(f.Type())
		for _, key := range mapKeys {
			m.SetMapIndex(reflect.ValueOf(key).Convert(f.Type().Key()), reflect.Zero(f.Type().Elem()))
		}
		f.Set(m)
	}
	return true
}

// trimMaps leaves at most keep entries in every map under v but the
// seed map (whose keys are the mapKeys), those of the least keys: a
// map of one entry encodes the same in every process, whatever order Go
// iterates it in.
func trimMaps(v reflect.Value, keep int) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			trimMaps(v.Elem(), keep)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				trimMaps(v.Field(i), keep)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			trimMaps(v.Index(i), keep)
		}
	case reflect.Map:
		if v.IsNil() || !v.CanSet() {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		if len(keys) > 0 && fmt.Sprint(keys[0]) == mapKeys[0] {
			keep = max(keep, len(mapKeys))
		}
		m := reflect.MakeMap(v.Type())
		for _, k := range keys[:min(keep, len(keys))] {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			trimMaps(e, keep)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	}
}

// hugeString is the length of huge-string's string.
func hugeString(quick bool) int {
	if quick {
		return 1 << 20
	}
	return 32 << 20
}

// find returns the first settable value under v (depth first, through
// struct fields, pointers and a slice's first element) whose type matches.
func find(v reflect.Value, match func(reflect.Type) bool) reflect.Value {
	if match(v.Type()) && v.CanSet() {
		return v
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return find(v.Elem(), match)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if f := find(v.Field(i), match); f.IsValid() {
				return f
			}
		}
	case reflect.Slice:
		if v.Len() > 0 && v.Type().Elem().Kind() != reflect.Uint8 {
			return find(v.Index(0), match)
		}
	}
	return reflect.Value{}
}
