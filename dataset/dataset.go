package dataset

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/serbench/serbench/internal/suggest"
)

// A Shape is how a dataset's element is arranged in the encoded value.
type Shape string

// The shapes.
const (
	Single   Shape = "single"   // one value: T
	Slice    Shape = "slice"    // a slice of values: []T
	PtrSlice Shape = "ptrslice" // a slice of pointers: []*T
)

// Shapes lists every shape in display order.
var Shapes = []Shape{Single, Slice, PtrSlice}

// ParseShape returns the shape named s.
func ParseShape(s string) (Shape, error) {
	for _, sh := range Shapes {
		if string(sh) == s {
			return sh, nil
		}
	}
	return "", CheckShapes([]Shape{Shape(s)})
}

// CheckShapes returns an error naming every one of shapes that is not a
// shape, with the closest shapes, or nil if all are.
func CheckShapes(shapes []Shape) error {
	var names, known []string
	for _, s := range shapes {
		names = append(names, string(s))
	}
	for _, s := range Shapes {
		known = append(known, string(s))
	}
	return suggest.Check("shape", names, known, nil, "")
}

func joinShapes(ss []Shape) string {
	var names []string
	for _, s := range ss {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// A Dataset is one payload type with a deterministic generator.
type Dataset struct {
	Name   string // registry name, e.g. "big"
	Doc    string // one line for `serbench list datasets`
	Source string // the seed article it comes from
	// SliceLen is the number of elements in the slice shapes; zero means
	// the dataset has only the single shape.
	SliceLen int
	// XLSlices marks the slice shapes as extra large (hundreds of MB
	// encoded): they run only when asked for explicitly.
	XLSlices bool
	// Corpus, for a dataset that is a real document rather than a
	// generator's output, says where the document comes from.
	Corpus *Corpus

	elem reflect.Type
	// build returns a pointer to a value in shape s made of the generator's
	// elements start, start+1, ...: n of them in the slice shapes, element
	// start alone in the single shape.
	build func(s Shape, start, n int) any
}

// Type returns the Go type of the single value.
func (d *Dataset) Type() reflect.Type { return d.elem }

// Shapes returns the shapes this dataset can be built in.
func (d *Dataset) Shapes() []Shape {
	if d.SliceLen == 0 {
		return []Shape{Single}
	}
	return Shapes
}

// Has reports whether the dataset can be built in shape s.
func (d *Dataset) Has(s Shape) bool {
	return s == Single || (d.SliceLen > 0 && (s == Slice || s == PtrSlice))
}

// IsXL reports whether the dataset in shape s is an extra-large case.
func (d *Dataset) IsXL(s Shape) bool { return d.XLSlices && s != Single }

// Count is the number of elements of the dataset's type in shape s.
func (d *Dataset) Count(s Shape) int {
	if s == Single {
		return 1
	}
	return d.SliceLen
}

// Value builds a fresh value of the dataset in shape s and returns a
// pointer to it (*T, *[]T or *[]*T). Every call builds a new, equal value.
// It is ValueAt(s, 0).
func (d *Dataset) Value(s Shape) (any, error) { return d.ValueAt(s, 0) }

// ValueAt builds build k (k >= 0) of the dataset in shape s and returns a
// pointer to it, of the same type as Value's. ValueAt(s, 0) equals
// Value(s). For k != 0 it is a different value in which every element, at
// every depth, differs from build 0's: the single shape holds the
// generator's element k, the slice shapes its elements k*SliceLen to
// k*SliceLen+SliceLen-1 where build 0 holds 0 to SliceLen-1. Only the
// indices differ, so builds 0 and 1 encode to nearly the same size. Every
// call builds a new, equal value.
//
// It is there so that a benchmark can decode two distinct messages of
// about the same size in turn: a codec that returns its input, or a cache
// or memo that hands back an earlier result, then fails verification.
func (d *Dataset) ValueAt(s Shape, k int) (any, error) {
	if !d.Has(s) {
		return nil, fmt.Errorf("dataset %s has no shape %q; it has: %s", d.Name, s, joinShapes(d.Shapes()))
	}
	if k < 0 {
		return nil, fmt.Errorf("dataset %s: build %d: builds are numbered from 0", d.Name, k)
	}
	if s == Single {
		return d.build(s, k, 1), nil
	}
	return d.build(s, k*d.SliceLen, d.SliceLen), nil
}

// define builds a Dataset from a generator of the i-th element. gen must
// give distinct elements for distinct i, at every depth: Dataset.ValueAt
// relies on it.
func define[T any](name, doc, source string, sliceLen int, gen func(i int) T) *Dataset {
	return &Dataset{
		Name: name, Doc: doc, Source: source, SliceLen: sliceLen,
		elem: reflect.TypeFor[T](),
		build: func(s Shape, start, n int) any {
			switch s {
			case Slice:
				out := make([]T, 0, n)
				for i := range n {
					out = append(out, gen(start+i))
				}
				return &out
			case PtrSlice:
				out := make([]*T, 0, n)
				for i := range n {
					v := gen(start + i)
					out = append(out, &v)
				}
				return &out
			default:
				v := gen(start)
				return &v
			}
		},
	}
}

// Base is the fixed instant every generated time derives from. It carries
// nanoseconds so that codecs which drop sub-second precision are caught.
var Base = time.Date(2023, time.April, 4, 12, 30, 45, 123456789, time.UTC)

const day = 24 * time.Hour
