package hostile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// A cell's inputs are a pure function of its class, -quick and its
// encodings: the codec's own encoding of the seed value and, for
// other-type, of another dataset's. A fresh child per codec computes the
// encodings of every class, in the classes' order whichever were chosen
// (gob numbers types in the order a process first meets them), and the
// parent sends them to every child of the cell, so that the reproducer it
// saves is byte for byte the input a child decoded; each encoding is
// canonical (the least in byte order of those the codec gives), so that
// two runs generate the same inputs although Go's map iteration order
// differs from one process to the next.

// Encodings are what a cell's inputs are generated from.
type Encodings struct {
	Valid []byte `json:"valid,omitempty"`
	Other []byte `json:"other,omitempty"`
	// Nest holds the encodings of dataset.Nest 1 to nestDepths levels
	// deep, which the recursive class's ladder is inferred from.
	Nest [][]byte `json:"nest,omitempty"`
	// External holds an external class's inputs.
	External []External `json:"external,omitempty"`
}

// sendLimit is the size beyond which the parent does not send a seed's
// encoding to a child, which encodes it again: only huge-string's seed is
// larger, a value without a map, whose encoding does not vary.
const sendLimit = 1 << 20

// genSeed seeds every random choice of a class (positions, bytes, the
// sample of prefixes); it is recorded in the matrix's settings.
const genSeed = 23

// Inputs returns the inputs of class for the codec info and the seed they
// start from, as "dataset/shape": no seed when the codec encodes none of
// the class's seed values, no inputs when the class does not apply. Every
// process returns the same inputs.
func Inputs(info codec.Info, class string, quick bool) (seed string, in []Input) {
	s, in := inputs(info, class, quick, nil)
	if s == nil {
		return "", nil
	}
	return s.name, in
}

// inputs is Inputs with the seed's value, Case and encoding; given, when
// not nil, holds the encodings the parent computed.
func inputs(info codec.Info, class string, quick bool, given *Encodings) (*seed, []Input) {
	cl, err := LookupClass(class)
	if err != nil {
		return nil, nil
	}
	s, src := prepare(info, cl, quick, given)
	if s == nil {
		return nil, nil
	}
	return s, cl.gen(src, quick)
}

// prepare returns the seed of class cl for info and the source its inputs
// are generated from, the encodings given or the canonical ones.
func prepare(info codec.Info, cl *Class, quick bool, given *Encodings) (*seed, *source) {
	canon := given == nil || given.Valid == nil
	s := newSeed(info, cl.seed, quick, canon)
	if s == nil {
		return nil, nil
	}
	if !canon {
		s.valid = given.Valid
	}
	src := &source{fam: framings[info.Family], valid: s.valid}
	if cl.Name == "other-type" {
		if given != nil && given.Other != nil {
			src.other = given.Other
		} else {
			src.other = otherEncoding(info, s.name)
		}
	}
	if given != nil {
		src.external = given.External
	}
	if cl.seed == seedNest {
		if given != nil && given.Nest != nil {
			src.nest = given.Nest
		} else {
			src.nest = nestEncodings(info)
		}
	}
	return s, src
}

// encodings returns the encodings to send a child of cell (info, class),
// nil for those it computes itself, and the SHA-256 of the seed's.
func encodings(info codec.Info, class string, quick bool) (*Encodings, string) {
	cl, err := LookupClass(class)
	if err != nil {
		return nil, ""
	}
	s, src := prepare(info, cl, quick, nil)
	if s == nil {
		return nil, ""
	}
	sum := sha256.Sum256(src.valid)
	e := &Encodings{Other: src.other, Nest: src.nest}
	if len(src.valid) <= sendLimit {
		e.Valid = src.valid
	}
	return e, hex.EncodeToString(sum[:])
}

// A generatedSeed is a class's encodings for one codec, as a generation
// child computes them, and the SHA-256 of its seed's.
type generatedSeed struct {
	Enc *Encodings `json:"enc,omitempty"`
	SHA string     `json:"sha256,omitempty"`
}

// generated is the child's side of generate: the encodings of every
// class for info, by class name: those of the recursive type's classes
// when nest is set, the others' when it is not (an encoder may recurse
// without bound on a recursive type, and take the child with it).
func generated(info codec.Info, quick, nest bool) (json.RawMessage, error) {
	out := map[string]generatedSeed{}
	for _, class := range ClassNames() {
		if cl, _ := LookupClass(class); (cl.seed == seedNest) != nest {
			continue
		}
		if e, sum := encodings(info, class, quick); sum != "" {
			out[class] = generatedSeed{Enc: e, SHA: sum}
		}
	}
	return json.Marshal(out)
}

// generate is the study's Before: it computes the encodings of the cells
// to run, in two fresh children per codec through run (the recursive
// type's classes in the second), and keeps each in its cell's state with
// the seed's SHA-256. A cell of the recursive type for a codec whose
// encoder died on it is n/a without a task (no input can be generated;
// the decoder is not to blame); an external class's cell gets its inputs
// from o (the class fuzz, the crashers kept in the tree too), and is n/a
// when there are none for its codec. A codec whose
// generation child failed otherwise has its cells' children generate
// their own encodings, and the cells say so.
func generate(ctx context.Context, cells []*study.Cell, run func(context.Context, []study.Task) ([]worker.TaskResult, error), o Options) error {
	type key struct {
		codec string
		nest  bool
	}
	var tasks []study.Task
	var of []key
	for _, c := range cells {
		cl, err := LookupClass(c.Case.Name)
		if err != nil || slices.ContainsFunc(externalClasses, func(e Class) bool { return e.Name == cl.Name }) {
			continue
		}
		k := key{c.Codec.Name, cl.seed == seedNest}
		if slices.Contains(of, k) {
			continue
		}
		in, _ := json.Marshal(cellTask{Quick: o.Quick, Replay: -1, Generate: true, Nest: k.nest})
		tasks = append(tasks, study.Task{Codec: c.Codec, Case: c.Case.Name, Input: in})
		of = append(of, k)
	}
	var fuzzed map[string][]External
	if o.Fuzz != nil {
		var codecs []codec.Info
		for _, c := range cells {
			if c.Case.Name == ClassFuzz {
				codecs = append(codecs, c.Codec)
			}
		}
		stats, err := fuzz(ctx, codecs, run, *o.Fuzz)
		if err != nil {
			return err
		}
		fuzzed = map[string][]External{}
		for _, st := range stats {
			fuzzed[st.Codec] = st.Crashers
		}
	}
	got := map[key]map[string]generatedSeed{}
	died := map[string]string{} // codec: how its child died on the recursive type
	failed := map[string]bool{}
	if len(tasks) > 0 {
		res, err := run(ctx, tasks)
		if err != nil {
			return err
		}
		for k, r := range res {
			codec, nest := of[k].codec, of[k].nest
			var g map[string]generatedSeed
			switch {
			case r.Exit != nil && nest:
				died[codec] = r.Exit.String()
			case r.Exit != nil || r.Err != "" || json.Unmarshal(r.Output, &g) != nil:
				failed[codec] = true
			default:
				got[key{codec, nest}] = g
			}
		}
	}
	for _, c := range cells {
		st := stateOf(c)
		switch c.Case.Name {
		case ClassInput:
			st.enc = &Encodings{External: o.Inputs}
			continue
		case ClassFuzz:
			known, err := KnownCrashers(c.Codec.Name)
			if err != nil {
				return err
			}
			if in := joinCrashers(known, fuzzed[c.Codec.Name]); len(in) == 0 {
				c.Result.Outcome, c.Result.Detail = NA, "no crasher kept in the tree (hostile/crashers) or found by -fuzz"
			} else {
				st.enc = &Encodings{External: in}
			}
			continue
		}
		cl, err := LookupClass(c.Case.Name)
		if err != nil {
			continue
		}
		nest := cl.seed == seedNest
		if why, ok := died[c.Codec.Name]; ok && nest {
			c.Result.Outcome = NA
			c.Result.Detail = "the codec's encoder died on a recursive type (" + why + "), so no input of it could be generated; the decoder is not to blame"
			continue
		}
		if g, ok := got[key{c.Codec.Name, nest}][c.Case.Name]; ok {
			st.enc, st.sha = g.Enc, g.SHA
		}
		st.ownEnc = failed[c.Codec.Name]
	}
	return nil
}

// otherEncoding returns other-type's encoding: the first of
// otherCandidates that is not the seed and that the codec encodes.
func otherEncoding(info codec.Info, seedName string) []byte {
	for _, name := range otherCandidates {
		if name == seedName {
			continue
		}
		if v, err := datasetValue(name); err == nil {
			if o := encodeSeed(info, name, v, true); o != nil {
				return o.valid
			}
		}
	}
	return nil
}

// canonical returns the least in byte order of the encodings encode
// gives: the one encoding a codec that writes maps in Go's iteration
// order gives in any process. Every map of a seed holds one entry but the
// seed map's two (trimMaps); a process gives both orders of those two,
// as rotations of the map's eight slots, the rarer at least one time in
// eight. A seed with two entries (many) is encoded canonTries times,
// which misses the rarer order with a chance of (7/8)^canonTries, under
// 1e-14; any other is encoded checkTries times, and canonTries times
// when those differ (twice only over sendLimit: only seeds without a map
// are that large).
func canonical(first []byte, encode func() ([]byte, error), many bool) []byte {
	least := first
	tries := checkTries
	switch {
	case len(first) > sendLimit:
		tries = 2
	case many:
		tries = canonTries
	}
	for n := 1; n < tries; n++ {
		enc, err := encode()
		if err != nil {
			return least
		}
		if !bytes.Equal(enc, first) && len(first) <= sendLimit {
			tries = canonTries
		}
		if bytes.Compare(enc, least) < 0 {
			least = bytes.Clone(enc)
		}
	}
	return least
}

// How many times canonical encodes a seed.
const (
	checkTries = 8
	canonTries = 256
)
