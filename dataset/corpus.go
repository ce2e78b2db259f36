package dataset

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sync"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
)

// A Corpus is where a corpus dataset's document comes from: a real JSON
// document that JSON libraries are measured on, taken byte for byte from a
// module serbench depends on and kept, compressed, in testdata/corpus.
type Corpus struct {
	File    string // the compressed document, in dataset/testdata/corpus
	Module  string // the module it was taken from, module@version
	Path    string // its path in that module
	License string // the licence it is distributed under, and where its text is
	Size    int    // bytes of the JSON document
	SHA256  string // of the JSON document, hex
	// Literal makes the value's strings the document's string literals
	// as written, escapes and all ("\u0697" as six characters): a codec
	// writes its own encoding of a value, so a value decoded from
	// string_escaped would be string_unicode's, and no JSON encoder writes
	// those escapes again. Its strings keep the document's escapes for
	// encoders to escape and decoders to read back. (A flat object of
	// strings only.)
	Literal bool
}

//go:embed testdata/corpus/*.json.zst
var corpusFS embed.FS

// Document returns the JSON document the value is decoded from: JSON,
// with every string value made its own literal text where Literal says
// so.
func (c *Corpus) Document() ([]byte, error) {
	b, err := c.JSON()
	if err != nil || !c.Literal {
		return b, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, fmt.Errorf("corpus %s: %v", c.File, err)
	}
	lit := make(map[string]string, len(members))
	for k, raw := range members {
		if len(raw) < 2 || raw[0] != '"' {
			return nil, fmt.Errorf("corpus %s: member %q is not a string", c.File, k)
		}
		lit[k] = string(raw[1 : len(raw)-1])
	}
	return json.Marshal(lit)
}

// JSON returns the corpus's JSON document, decompressed.
func (c *Corpus) JSON() ([]byte, error) {
	z, err := corpusFS.ReadFile("testdata/corpus/" + c.File)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %v", c.File, err)
	}
	r, err := zstd.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %v", c.File, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: decompressing: %v", c.File, err)
	}
	return b, nil
}

// jsonExperiment is the module the corpora come from, and the licence
// they are distributed under; bytedance/sonic ships the same documents
// in its testdata, gzipped.
const (
	jsonExperiment        = "github.com/go-json-experiment/json@v0.0.0-20260820222146-c27c302e5fc3"
	jsonExperimentLicense = "BSD-3-Clause, Copyright 2020 The Go Authors (dataset/testdata/corpus/LICENSE)"
)

// fromJSONExperiment returns the provenance of name.json.zst, one of
// go-json-experiment/json's test documents.
func fromJSONExperiment(name string, size int, sha256 string) Corpus {
	return Corpus{
		File: name + ".json.zst", Module: jsonExperiment,
		Path:    "internal/jsontest/_embed/" + name + ".json.zst",
		License: jsonExperimentLicense, Size: size, SHA256: sha256,
	}
}

// literal returns c with Literal set.
func literal(c Corpus) Corpus {
	c.Literal = true
	return c
}

// corpus defines a dataset of one shape, single, whose value is the
// document c decoded into a T. Its build 0 is the document; build k
// rotates every string by k characters and every list by k elements (see
// rotated): the same characters, numbers and size in another order, so
// that a decoder handing back an earlier result fails verification.
func corpus[T any](name, doc string, c Corpus) *Dataset {
	load := sync.OnceValues(func() (T, error) {
		var v T
		b, err := c.Document()
		if err != nil {
			return v, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			return v, fmt.Errorf("corpus %s: decoding into %T: %v", c.File, v, err)
		}
		return v, nil
	})
	d := define(name, doc, "corpus", 0, func(i int) T {
		v, err := load()
		if err != nil {
			// The documents are embedded and checked by go test
			// ./dataset: an error here is a broken build.
			panic(err)
		}
		var out T
		rotate(reflect.ValueOf(&out).Elem(), reflect.ValueOf(v), i)
		return out
	})
	d.Corpus = &c
	return d
}

// rotate sets dst, settable, to a deep copy of src in which every string
// is rotated left by k characters and every slice and array by k
// elements. Nil stays nil and empty stays empty; k = 0 copies.
func rotate(dst, src reflect.Value, k int) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		rotate(p.Elem(), src.Elem(), k)
		dst.Set(p)
	case reflect.Struct:
		for i := range src.NumField() {
			rotate(dst.Field(i), src.Field(i), k)
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := src.Len()
		dst.Set(reflect.MakeSlice(src.Type(), n, n))
		for i := range n {
			rotate(dst.Index(i), src.Index((i+k)%n), k)
		}
	case reflect.Array:
		n := src.Len()
		for i := range n {
			rotate(dst.Index(i), src.Index((i+k)%n), k)
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			e := reflect.New(src.Type().Elem()).Elem()
			rotate(e, it.Value(), k)
			m.SetMapIndex(it.Key(), e)
		}
		dst.Set(m)
	case reflect.String:
		dst.SetString(rotateString(src.String(), k))
	default:
		dst.Set(src)
	}
}

// rotateString moves the first k mod n characters of s, of n, to its end.
func rotateString(s string, k int) string {
	n := utf8.RuneCountInString(s)
	if n < 2 || k%n == 0 {
		return s
	}
	at := 0
	for range k % n {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return s[at:] + s[:at]
}
