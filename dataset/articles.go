package dataset

import (
	"maps"
	"strconv"
)

// The payloads below are the seed articles' experiments as they ran them,
// next to the fairer datasets above them in All.

// complexMap5Keys is the size of seed 000's maps: ten maps of five keys
// hold the same 50 Huges as seed 002's one map of fifty.
const complexMap5Keys = 5

// NewComplexMap5 returns the i-th of seed 000's five-key maps: Huges i*5
// to i*5+4, keyed "0" to "4". Its slice shapes are seed 000's slice of ten
// maps and slice of ten pointers to maps.
func NewComplexMap5(i int) ComplexMap {
	m := make(ComplexMap, complexMap5Keys)
	for k := range complexMap5Keys {
		m[strconv.Itoa(k)] = NewHuge(i*complexMap5Keys + k)
	}
	return m
}

// ComplexMapPtr is seed 002's complexMap: Huges by pointer.
type ComplexMapPtr map[string]*Huge

// NewComplexMapPtr returns the i-th ComplexMapPtr: the Huges of
// NewComplexMap(i), by pointer.
func NewComplexMapPtr(i int) ComplexMapPtr {
	m := make(ComplexMapPtr, complexMapKeys)
	for k := range complexMapKeys {
		h := NewHuge(i*complexMapKeys + k)
		m[strconv.Itoa(k)] = &h
	}
	return m
}

// IntMap is a map with integer keys, for seed 003's claim that JSON
// encodes only maps keyed by strings.
type IntMap map[int]B

// NewIntMap returns the i-th IntMap: three Bs keyed by integers, all
// raised by i.
func NewIntMap(i int) IntMap {
	return IntMap{
		11 + 100*i: {I2: 2 + i, Str2: "def"},
		22 + 100*i: {I2: 22 + i, Str2: "defdef"},
		33 + 100*i: {I2: 222 + i, Str2: "defdefdef"},
	}
}

// GameRound is seed 003's round trip in one message: the article's
// benchmark serialized the int 23422, then the int 0, then the message A,
// and deserialized each.
type GameRound struct {
	Int  int `json:"int" xml:"int" yaml:"int"`
	Zero int `json:"zero" xml:"zero" yaml:"zero"`
	Msg  A   `json:"msg" xml:"msg" yaml:"msg"`
}

// NewGameRound returns the i-th GameRound: 23422 plus i, 0, and the i-th
// game message.
func NewGameRound(i int) GameRound {
	return GameRound{Int: 23422 + i, Msg: NewA(i)}
}

// ArticleOnly names the datasets that rerun a seed article's experiment
// as it ran it, beside a fairer dataset, each with why a codec with a
// schema or generated code leaves it out (codec.Info.Omits).
var ArticleOnly = map[string]string{
	"complexmapptr": "seed 002's map of pointers holds the same Huges as complexmap, which it covers",
	"gameround":     "seed 003's round trip in one message; its parts, game and int64, are covered",
	"intmap":        "seed 003's integer-keyed map tests a claim about JSON only",
}

// CorpusOmitted is why a codec with a schema or generated code leaves out
// a corpus dataset (codec.Info.Omits).
const CorpusOmitted = "a real JSON document whose types (nested records, lists of lists, fields of two JSON types) " +
	"have no schema or generated code in serbench: the corpora compare the JSON and reflection codecs"

// Omits returns ArticleOnly and the corpora with the entries of more
// added: a schema codec's Info.Omits.
func Omits(more map[string]string) map[string]string {
	out := maps.Clone(ArticleOnly)
	for _, d := range All {
		if d.Corpus != nil {
			out[d.Name] = CorpusOmitted
		}
	}
	maps.Copy(out, more)
	return out
}
