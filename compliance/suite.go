package compliance

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// An Expect is what the suite requires of a parser given an input.
type Expect byte

// The expectations, the first letter of a case's name.
const (
	Accept Expect = 'y' // valid JSON: must be accepted
	Reject Expect = 'n' // invalid JSON: must be rejected
	Either Expect = 'i' // left to the implementation
)

// An Input is one case of the suite.
type Input struct {
	Name string // "n_number_-01"
	Data []byte
	Want Expect
}

// A Group is a column of the matrix: the cases of one expectation about
// one kind of value.
type Group struct {
	Name   string // "n_number"
	Doc    string
	Inputs []Input
}

// A Suite is the cases, grouped, and the names of those left out.
type Suite struct {
	Groups  []Group
	LeftOut []string
}

// kinds are the groups' kinds of value; a case of another ("n_incomplete_
// false", "n_single_space") goes with the structures.
var kinds = []string{"array", "number", "object", "string", "structure"}

var wants = []struct {
	e    Expect
	does string
}{{Accept, "must be accepted"}, {Reject, "must be rejected"}, {Either, "either is right"}}

//go:embed testdata/jsontestsuite.json.gz
var suiteGz []byte

// Load returns the suite, read once.
var Load = sync.OnceValues(func() (*Suite, error) { return parse(suiteGz) })

// parse reads a gzipped JSON object of case names to inputs.
func parse(gz []byte) (*Suite, error) {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("compliance: the suite: %v", err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("compliance: the suite: %v", err)
	}
	var cases map[string]string
	if err := json.Unmarshal(b, &cases); err != nil {
		return nil, fmt.Errorf("compliance: the suite: %v", err)
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	s := &Suite{}
	byGroup := map[string][]Input{}
	for _, n := range names {
		data := cases[n]
		if strings.ContainsRune(data, '\uFFFD') {
			s.LeftOut = append(s.LeftOut, n)
			continue
		}
		g, want, ok := groupOf(n)
		if !ok {
			return nil, fmt.Errorf("compliance: the suite: case %q is not named y_, n_ or i_", n)
		}
		byGroup[g] = append(byGroup[g], Input{Name: n, Data: []byte(data), Want: want})
	}
	for _, w := range wants {
		for _, k := range kinds {
			name := string(w.e) + "_" + k
			in := byGroup[name]
			if len(in) == 0 {
				continue
			}
			doc := fmt.Sprintf("%d cases: %s %s, %s", len(in), adjective(w.e), k, w.does)
			s.Groups = append(s.Groups, Group{Name: name, Doc: doc, Inputs: in})
		}
	}
	return s, nil
}

func adjective(e Expect) string {
	switch e {
	case Accept:
		return "valid"
	case Reject:
		return "invalid"
	}
	return "implementation-defined"
}

// groupOf returns the group of the case named name and its expectation.
func groupOf(name string) (string, Expect, bool) {
	parts := strings.SplitN(name, "_", 3)
	if len(parts) < 2 || len(parts[0]) != 1 {
		return "", 0, false
	}
	e := Expect(parts[0][0])
	if e != Accept && e != Reject && e != Either {
		return "", 0, false
	}
	k := parts[1]
	if !slices.Contains(kinds, k) {
		k = "structure"
	}
	return string(e) + "_" + k, e, true
}

// Lookup returns the group named name.
func (s *Suite) Lookup(name string) (*Group, bool) {
	for i := range s.Groups {
		if s.Groups[i].Name == name {
			return &s.Groups[i], true
		}
	}
	return nil, false
}
