package summary

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
)

// baseline is the codec each corpus's answers are measured against: the
// standard library's JSON, which every JSON library claims to beat.
const baseline = "json"

// corpora returns the run's categories whose dataset is a corpus (a real
// document, dataset.Corpus), in run order.
func (ix *index) corpora() []category {
	var out []category
	for _, c := range ix.cats {
		if d, err := dataset.Lookup(c.Dataset); err == nil && d.Corpus != nil {
			out = append(out, c)
		}
	}
	return out
}

// corpora writes the answers per corpus: on each real document, the
// fastest decode and encode against encoding/json, and the smallest
// encoding.
func (s *writer) corpora() {
	cs := s.ix.corpora()
	var lines []string
	var flagged []string
	for _, c := range cs {
		var parts []string
		for _, op := range []results.Op{results.Decode, results.Encode} {
			if p := s.againstBaseline(op, c, &flagged); p != "" {
				parts = append(parts, p)
			}
		}
		if p := s.smallestAgainstBaseline(c, &flagged); p != "" {
			parts = append(parts, p)
		}
		if len(parts) > 0 {
			lines = append(lines, fmt.Sprintf("- On **%s**, %s.", text(c.Dataset), strings.Join(parts, "; ")))
		}
	}
	if len(lines) == 0 {
		return
	}
	s.p("")
	s.p("## On the real documents")
	s.p("")
	s.p("Each corpus is a real JSON document (serbench list -v datasets says where it comes from), measured as one value. Its fastest")
	s.p("codecs are set against encoding/json, called faster only where the two intervals stand apart.")
	s.p("")
	for _, l := range lines {
		s.p("%s", l)
	}
	if len(flagged) > 0 {
		s.p("")
		s.p("† Not like for like (a variant, a non-reflection API or declared losses): %s.", andList(escaped(flagged)))
	}
}

// verbs say what an op does, for a sentence.
var verbs = map[results.Op]string{results.Encode: "encodes", results.Decode: "decodes"}

// againstBaseline says how the fastest codec for op on c stands against
// the baseline: "sonic decodes 3.1× faster than encoding/json (1.2 ms ±2%
// against 3.7 ms ±1%)", or that none is faster beyond noise.
func (s *writer) againstBaseline(op results.Op, c category, flagged *[]string) string {
	rs := s.ix.measured(op, c)
	if len(rs) == 0 {
		return ""
	}
	slices.SortStableFunc(rs, func(a, b *results.Result) int { return cmp.Compare(a.NsPerOp.Median, b.NsPerOp.Median) })
	best, base := rs[0], s.ix.get(op, baseline, c)
	label := s.baselineLabel()
	verb := verbs[op]
	switch {
	case base == nil:
		return fmt.Sprintf("%s was not measured; %s %s fastest, %s", label, s.ix.name(best.Codec, flagged), verb, durCI(best))
	case best.Codec == baseline:
		return fmt.Sprintf("no codec %s faster than %s (%s)", verb, label, durCI(base))
	}
	f := ratio(base.NsPerOp.Median / best.NsPerOp.Median)
	side, known := results.Compare(stat(best), stat(base))
	switch {
	case !known:
		return fmt.Sprintf("%s %s %s faster than %s by median, without an interval to compare (%s against %s)",
			s.ix.name(best.Codec, flagged), verb, f, label, durCI(best), durCI(base))
	case side == 0:
		return fmt.Sprintf("no codec %s faster than %s beyond noise (the fastest, %s, is %s faster by median, within noise: %s against %s)",
			verb, label, s.ix.name(best.Codec, flagged), f, durCI(best), durCI(base))
	}
	return fmt.Sprintf("**%s** %s %s faster than %s (%s against %s)", s.ix.name(best.Codec, flagged), verb, f, label, durCI(best), durCI(base))
}

// smallestAgainstBaseline names the codec of the smallest encoding of c
// and its size against the baseline's: sizes are exact.
func (s *writer) smallestAgainstBaseline(c category, flagged *[]string) string {
	best, n := "", -1
	for _, name := range s.ix.codecs {
		if m := s.ix.size(name, c); m >= 0 && (n < 0 || m < n) {
			best, n = name, m
		}
	}
	base := s.ix.size(baseline, c)
	switch {
	case n < 0:
		return ""
	case base < 0:
		return fmt.Sprintf("the smallest encoding is %s's, %s", s.ix.name(best, flagged), bytes(n))
	case best == baseline:
		return fmt.Sprintf("no encoding is smaller than %s's, %s", s.baselineLabel(), bytes(n))
	}
	return fmt.Sprintf("the smallest encoding is %s's, %s, %s the size of %s's (%s)",
		s.ix.name(best, flagged), bytes(n), ratio(float64(n)/float64(base)), s.baselineLabel(), bytes(base))
}

// baselineLabel names the baseline as the run's record labels it.
func (s *writer) baselineLabel() string {
	if c := s.ix.run.Codec(baseline); c != nil && c.Label != "" {
		return text(c.Label)
	}
	return baseline
}
