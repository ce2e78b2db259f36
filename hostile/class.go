package hostile

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/serbench/serbench/internal/suggest"
)

// A Class is a kind of hostile input, generated from a codec's own valid
// encoding of a seed value.
type Class struct {
	// Name names the class on the command line and in the matrix.
	Name string
	// Doc says in one line what the inputs are.
	Doc string
	// seed is the value whose encoding the inputs start from.
	seed seedKind
	// gen returns the inputs, smallest first where their size varies; nil
	// when the class does not apply to the format.
	gen func(s *source, quick bool) []Input
}

// An Input is one hostile input.
type Input struct {
	Data []byte
	// Valid marks an input that is a valid encoding of the seed value:
	// the decoder should return that value.
	Valid bool
}

// A source is what a class generates from: the codec's framing (nil when
// serbench does not know the format's), its encoding of the seed value
// and, for other-type, of another dataset's.
type source struct {
	fam   *framing
	valid []byte
	other []byte
	nest  [][]byte // dataset.Nest 1 to nestDepths levels deep, for recursive
	// external are the inputs of an external class.
	external []External
}

// Classes lists every class.
var Classes = []Class{
	{Name: "empty", Doc: "a zero-length input", gen: func(*source, bool) []Input { return []Input{{Data: []byte{}}} }},
	{Name: "truncate", Doc: "every prefix of a valid encoding (a seeded sample of them when it is long)", gen: genTruncate},
	{Name: "bitflip", Doc: "a valid encoding with one bit flipped, at seeded positions", gen: mutator(64, 8, func(b []byte, r *rand.Rand) {
		b[r.IntN(len(b))] ^= 1 << r.IntN(8)
	})},
	{Name: "byte-replace", Doc: "a valid encoding with one byte replaced (0x00, 0xff, 0x7f, 0x80 or random), at seeded positions", gen: mutator(64, 8, func(b []byte, r *rand.Rand) {
		b[r.IntN(len(b))] = []byte{0, 0xff, 0x7f, 0x80, byte(r.Uint32())}[r.IntN(5)]
	})},
	{Name: "zero-run", Doc: "a valid encoding with a run of 8 bytes zeroed, at seeded positions", gen: mutator(32, 4, func(b []byte, r *rand.Rand) {
		fill(b, r, 0)
	})},
	{Name: "ff-run", Doc: "a valid encoding with a run of 8 bytes set to 0xff: huge lengths and counts wherever they fall", gen: mutator(32, 4, func(b []byte, r *rand.Rand) {
		fill(b, r, 0xff)
	})},
	{Name: "trailing", Doc: "a valid encoding followed by garbage: a NUL, text, 0xff bytes", gen: func(s *source, _ bool) []Input {
		var out []Input
		for _, g := range []string{"\x00", "garbage", "\xff\xff\xff\xff"} {
			out = append(out, Input{Data: append(slices.Clip(s.valid), g...)})
		}
		return out
	}},
	{Name: "doubled", Doc: "a valid encoding twice in a row: one message where one is expected", gen: func(s *source, _ bool) []Input {
		return []Input{{Data: append(slices.Clip(s.valid), s.valid...)}}
	}},
	{Name: "other-type", Doc: "the codec's valid encoding of another dataset's value, decoded as the seed's type", gen: func(s *source, _ bool) []Input {
		if s.other == nil {
			return nil
		}
		return []Input{{Data: s.other}}
	}},
	{Name: "huge-string", Doc: "a valid encoding of a value whose string is 32 MiB (1 MiB with -quick): it should decode", seed: seedHugeString, gen: func(s *source, _ bool) []Input {
		return []Input{{Data: s.valid, Valid: true}}
	}},
	{Name: "bad-utf8", Doc: "a valid encoding whose string holds bytes that are not UTF-8", seed: seedString, gen: func(s *source, _ bool) []Input {
		i := bytes.Index(s.valid, []byte(marker))
		if i < 0 {
			return nil
		}
		b := bytes.Clone(s.valid)
		copy(b[i+3:], "\xff\xfe\xc0\x80")
		return []Input{{Data: b}}
	}},
	{Name: "dup-keys", Doc: "a valid encoding of a map with one key written twice", seed: seedMap, gen: func(s *source, _ bool) []Input {
		first, second := -1, -1
		for _, k := range mapKeys {
			if i := bytes.Index(s.valid, []byte(k)); i >= 0 {
				switch {
				case first < 0 || i < first:
					first, second = i, first
				case second < 0 || i < second:
					second = i
				}
			}
		}
		if first < 0 || second < 0 {
			return nil
		}
		b := bytes.Clone(s.valid)
		copy(b[second:], s.valid[first:first+len(mapKeys[0])])
		return []Input{{Data: b}}
	}},
	{Name: "long-string", Doc: "a string's declared length far beyond the input, in the format's own framing", seed: seedString, gen: func(s *source, _ bool) []Input {
		return s.patchAt(bytes.Index(s.valid, []byte(marker)), kString, uint64(len(marker)))
	}},
	{Name: "long-bytes", Doc: "a byte string's declared length far beyond the input, in the format's own framing", seed: seedBytes, gen: func(s *source, _ bool) []Input {
		return s.patchAt(bytes.Index(s.valid, []byte(marker)), kBytes, uint64(len(marker)))
	}},
	{Name: "long-array", Doc: "a slice's declared element count far beyond the input, in the format's own framing", seed: seedArray, gen: func(s *source, _ bool) []Input {
		return s.patchFirst(kArray, seedCount)
	}},
	{Name: "long-map", Doc: "a map's declared entry count far beyond the input, in the format's own framing", seed: seedMap, gen: func(s *source, _ bool) []Input {
		first := -1
		for _, k := range mapKeys {
			if i := bytes.Index(s.valid, []byte(k)); i >= 0 && (first < 0 || i < first) {
				first = i
			}
		}
		if first < 0 || s.fam == nil || s.fam.prefixes == nil {
			return nil
		}
		// The map's count comes before its first key's length prefix.
		for _, p := range s.fam.prefixes(kString, uint64(len(mapKeys[0]))) {
			if at := first - len(p); at >= 0 && bytes.Equal(s.valid[at:first], p) {
				return s.patchAt(at, kMap, uint64(len(mapKeys)))
			}
		}
		return nil
	}},
	{Name: "deep-array", Doc: "arrays nested 1,000, 100,000, 1,000,000 and 4,000,000 deep (to 100,000 with -quick), decoded into a map[string]any (else a struct)", seed: seedGeneric, gen: genDeep(false)},
	{Name: "deep-map", Doc: "maps (objects, documents) nested as deep as deep-array, where the format nests maps apart from arrays", seed: seedGeneric, gen: genDeep(true)},
	{Name: "deep-skip", Doc: "arrays nested as deep as deep-array in a field the struct decoded into does not have: the decoder's skipping path", gen: genDeep(false)},
	{Name: "recursive", Doc: "a recursive type (struct{ N *Self }) nested 1,000 to 4,000,000 deep (to 100,000 with -quick), where the codec encodes one", seed: seedNest, gen: func(s *source, quick bool) []Input {
		l := inferLadder(s.nest, s.fam)
		if l == nil {
			return nil
		}
		var out []Input
		for _, d := range depths(quick) {
			out = append(out, Input{Data: l.at(d)})
		}
		return out
	}},
	{Name: "huge-header", Doc: "a bare map header, then a bare array header, declaring 2^32-1 entries, decoded into a map[string]any (5 bytes in MessagePack and CBOR)", seed: seedAny, gen: func(s *source, _ bool) []Input {
		if s.fam == nil || s.fam.huge == nil || !s.fam.hasMaps {
			return nil
		}
		return []Input{{Data: s.fam.huge(kMap)}, {Data: s.fam.huge(kArray)}}
	}},
	{Name: "alias-bomb", Doc: "YAML anchors and aliases that expand to a billion elements (\"billion laughs\")", gen: func(s *source, _ bool) []Input {
		if s.fam != framings["yaml"] {
			return nil
		}
		var b strings.Builder
		b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
		for c := 'b'; c <= 'i'; c++ {
			p := string(c - 1)
			fmt.Fprintf(&b, "%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
		}
		return []Input{{Data: []byte(b.String())}}
	}},
}

// The seeds' markers: a string and map keys that a class finds in an
// encoding to patch the prefix before them.
const marker = "hostile-marker-0123456789"

// mapKeys are two: a Go map's iteration order differs from one process to
// the next, and of two entries every order is one a process gives, so
// that the least encoding is the same in every process (canonical).
var mapKeys = []string{"hkey-000", "hkey-001"}

// seedCount is the element count of the array seed.
const seedCount = 7

// ladder is the nesting depths of deep-array and deep-map.
var ladder = []int{1_000, 100_000, 1_000_000, 4_000_000}

// depths returns the nesting ladder's depths.
func depths(quick bool) []int {
	if quick {
		return ladder[:2]
	}
	return ladder
}

func genDeep(maps bool) func(*source, bool) []Input {
	return func(s *source, quick bool) []Input {
		if s.fam == nil || s.fam.deep == nil || maps && !s.fam.hasMaps {
			return nil
		}
		var out []Input
		for _, d := range depths(quick) {
			out = append(out, Input{Data: s.fam.deep(d, maps)})
		}
		return out
	}
}

func genTruncate(s *source, quick bool) []Input {
	n := len(s.valid)
	limit := 256
	if quick {
		limit = 16
	}
	lengths := make([]int, 0, n)
	if n <= limit {
		for i := range n {
			lengths = append(lengths, i)
		}
	} else {
		// The first bytes, where headers are, and a seeded sample of the rest.
		r := rand.New(rand.NewPCG(genSeed, uint64(n)))
		seen := map[int]bool{}
		for i := 0; i < limit/4; i++ {
			seen[i] = true
		}
		for len(seen) < limit {
			seen[limit/4+r.IntN(n-limit/4)] = true
		}
		for i := range seen {
			lengths = append(lengths, i)
		}
		slices.Sort(lengths)
	}
	out := make([]Input, len(lengths))
	for i, l := range lengths {
		out[i] = Input{Data: s.valid[:l:l]}
	}
	return out
}

// mutator returns a generator of n (quick: nq) seeded copies of the valid
// encoding, each changed by mutate. A mutation that changes nothing (the
// byte written is the one there) is not an input: mutate is drawn again,
// up to redraws times, and an encoding no draw changes gives no input.
func mutator(n, nq int, mutate func([]byte, *rand.Rand)) func(*source, bool) []Input {
	return func(s *source, quick bool) []Input {
		if len(s.valid) == 0 {
			return nil
		}
		count := n // not n itself: the generator is called again, with or without -quick
		if quick {
			count = nq
		}
		r := rand.New(rand.NewPCG(genSeed, uint64(len(s.valid))))
		out := make([]Input, 0, count)
		for range count {
			b := bytes.Clone(s.valid)
			for range redraws {
				if mutate(b, r); !bytes.Equal(b, s.valid) {
					out = append(out, Input{Data: b})
					break
				}
			}
		}
		return out
	}
}

// redraws bounds the draws of one mutated input.
const redraws = 64

// fill sets a run of up to 8 bytes at a seeded position to c.
func fill(b []byte, r *rand.Rand, c byte) {
	at := r.IntN(len(b))
	for i := at; i < min(at+8, len(b)); i++ {
		b[i] = c
	}
}

// patchAt replaces the length prefix of kind k that declares n and ends
// at offset end with the format's huge prefix of that kind.
func (s *source) patchAt(end int, k kind, n uint64) []Input {
	if end < 0 || s.fam == nil || s.fam.prefixes == nil {
		return nil
	}
	for _, p := range s.fam.prefixes(k, n) {
		if len(p) == 0 {
			continue
		}
		at := end - len(p)
		if at >= 0 && bytes.Equal(s.valid[at:end], p) {
			return s.replace(at, len(p), s.fam.huge(k))
		}
	}
	return nil
}

// patchFirst replaces the first length prefix of kind k that declares n
// (the top-level slice's count) with the format's huge prefix.
func (s *source) patchFirst(k kind, n uint64) []Input {
	if s.fam == nil || s.fam.prefixes == nil {
		return nil
	}
	best, size := -1, 0
	for _, p := range s.fam.prefixes(k, n) {
		if i := bytes.Index(s.valid, p); len(p) > 0 && i >= 0 && (best < 0 || i < best) {
			best, size = i, len(p)
		}
	}
	if best < 0 {
		return nil
	}
	return s.replace(best, size, s.fam.huge(k))
}

// replace returns two inputs: the valid encoding cut one byte after
// offset at+size, and the whole of it, each with the size bytes at offset
// at replaced by with and the framing repaired. A decoder that allocates
// what a prefix declares fails on the first, the smallest reproducer.
func (s *source) replace(at, size int, with []byte) []Input {
	var out []Input
	for _, end := range []int{min(at+size+1, len(s.valid)), len(s.valid)} {
		b := slices.Concat(s.valid[:at], with, s.valid[at+size:end])
		if s.fam.fix != nil {
			b = s.fam.fix(b, at, len(b)-len(s.valid))
		}
		out = append(out, Input{Data: b})
	}
	return out
}

// ClassNames returns the classes' names in order.
func ClassNames() []string {
	var names []string
	for _, c := range Classes {
		names = append(names, c.Name)
	}
	return names
}

// LookupClass returns the class named name.
func LookupClass(name string) (*Class, error) {
	for i := range Classes {
		if Classes[i].Name == name {
			return &Classes[i], nil
		}
	}
	for i := range externalClasses {
		if externalClasses[i].Name == name {
			return &externalClasses[i], nil
		}
	}
	return nil, CheckClasses([]string{name})
}

// CheckClasses returns an error naming every one of names that is not a
// class, with the closest ones, or nil.
func CheckClasses(names []string) error {
	return suggest.Check("class", names, ClassNames(), nil, "serbench list classes")
}
