package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// claims checks the seed articles' conclusions against the run: each claim
// is quoted with the article's figures and followed by this run's, and
// left out when the run lacks the data.
func (s *writer) claims() {
	var items []string
	add := func(format string, args ...any) { items = append(items, fmt.Sprintf(format, args...)) }

	// Seed 000: JSON for small and medium data, gob for huge.
	if m := s.tally("gob", "json", []string{"tiny", "medium"}); m != "" {
		add("Seed 000: \"It's not worth to use Gob for a small- or medium-sized data (either single or sliced), JSON is the best here.\" Here, on tiny and medium: %s.", m)
	}
	if m := s.tally("gob", "json", []string{"huge"}); m != "" {
		add("Seed 000: \"Gob is way faster than anything compared here in terms of encoding/decoding huge structs.\" Here, gob one-shot vs json on huge: %s.", m)
	}
	// Seed 000: XML fast at decoding slices (it decoded only the first element).
	if m := s.xmlSlices(); m != "" {
		add("Seed 000: \"XML is surprisingly fast in decoding a slice of any size of the structs\" (its xml.Unmarshal of a top-level slice kept only the first element). Here: %s.", m)
	}
	// Seed 000: YAML mostly last.
	if m := s.slowest("yaml"); m != "" {
		add("Seed 000: \"YAML took mostly the last place.\" Here: %s.", m)
	}
	// Seed 001: simple structs, numeric slice, composite record.
	user := category{Dataset: "user", Shape: "single"}
	if m := s.versus("json", "gob", user); m != "" {
		add("Seed 001, simple struct (User): JSON marshal 7.6× faster and unmarshal 12.5× faster than gob with a new Encoder per message. Here, user/single: %s.", m)
	}
	metrics := category{Dataset: "metric", Shape: "slice"}
	if m := s.versus("gob", "json", metrics); m != "" {
		add("Seed 001, 100 metrics: gob encodes 2.0× and decodes 4.5× faster than JSON, in 3,179 B against 8,080 B (61%% smaller). Here, metric/slice: %s.", m)
	}
	complexData := category{Dataset: "complexdata", Shape: "single"}
	if m := s.versus("gob", "json", complexData); m != "" {
		add("Seed 001, composite record (100 zero users, empty map): gob encodes 1.3× and decodes 3.3× faster, in 4,326 B against 7,346 B (41%% smaller). Here, with the users and map filled: %s.", m)
	}
	// Seed 003: the game-server message.
	game := category{Dataset: "game", Shape: "single"}
	if m := s.roundTrips(game, "json", "gob", "gob-stream"); m != "" {
		add("Seed 003, game-server message: JSON about twice as fast as gob (a round trip of 90 µs against 170 µs) and 8%% smaller (470 B against 507 B). Here, game/single: %s.", m)
	}
	// Seed 004: one int64.
	if m := s.roundTrips(category{Dataset: "int64", Shape: "single"}, "byteorder", "strconv", "binary", "gob", "gob-stream", "json"); m != "" {
		add("Seed 004, one int64 encoded and decoded: PutUint64 3.05 ns, strconv 191 ns, binary.Write 391 ns, gob 5,235 ns. Here: %s.", m)
	}
	if len(items) == 0 {
		return
	}
	s.p("")
	s.p("## The seed articles' claims against this run")
	s.p("")
	s.p("Quoted claims are the articles'; the figures after \"Here\" are this run's. A round trip is encode plus decode,")
	s.p("its interval the sum of the two.")
	s.p("")
	for _, it := range items {
		s.p("- %s", it)
	}
}

// tally counts, over the given datasets in every shape, how often a beats
// b, b beats a or they tie, op by op.
func (s *writer) tally(a, b string, datasets []string) string {
	var parts []string
	var cats []string
	for _, op := range results.Ops {
		var wa, wb, tie int
		for _, c := range s.ix.cats {
			if !slices.Contains(datasets, c.Dataset) {
				continue
			}
			ra, rb := s.ix.get(op, a, c), s.ix.get(op, b, c)
			if ra == nil || rb == nil {
				continue
			}
			if !slices.Contains(cats, c.String()) {
				cats = append(cats, c.String())
			}
			switch compare(stat(ra), stat(rb)) {
			case -1:
				wa++
			case 1:
				wb++
			default:
				tie++
			}
		}
		if wa+wb+tie == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %s faster in %d, %s faster in %d, tied or undecided in %d", op, text(b), wb, text(a), wa, tie))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + " of " + fmt.Sprint(len(cats)) + " cases (" + text(strings.Join(cats, ", ")) + ")"
}

// xmlSlices reports where xml's decode ranks on the slice shapes and where
// its round trip failed.
func (s *writer) xmlSlices() string {
	var parts []string
	for _, c := range s.ix.cats {
		if c.Shape == "single" {
			continue
		}
		if r := s.problem("xml", c); r != nil {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", text(c.String()), r.Status, text(r.ShortReason())))
			continue
		}
		rs := s.ix.measured(results.Decode, c)
		pos := slices.IndexFunc(rs, func(r *results.Result) bool { return r.Codec == "xml" })
		if pos < 0 || len(rs) < 2 {
			continue
		}
		x := rs[pos]
		if !stat(x).known() {
			parts = append(parts, fmt.Sprintf("%s decode %s, no interval", text(c.String()), dur(x.NsPerOp.Median)))
			continue
		}
		rank := 1
		for _, r := range rs {
			if r != x && compare(stat(r), stat(x)) < 0 {
				rank++
			}
		}
		parts = append(parts, fmt.Sprintf("%s decode %s, %s of %d", text(c.String()), dur(x.NsPerOp.Median), ordinal(rank), len(rs)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "xml on slices: " + strings.Join(parts, "; ") + " (rank counts only codecs faster with intervals apart)"
}

// problem returns codec's failed or errored result on c, if any.
func (s *writer) problem(codec string, c category) *results.Result {
	for i := range s.ix.run.Results {
		r := &s.ix.run.Results[i]
		if r.Codec == codec && r.Dataset == c.Dataset && r.Shape == c.Shape && (r.Status == results.Failed || r.Status == results.Error) {
			return r
		}
	}
	return nil
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// slowest counts the comparisons in which codec is the slowest.
func (s *writer) slowest(codec string) string {
	var last, n int
	for _, c := range s.ix.cats {
		for _, op := range results.Ops {
			rs := s.ix.measured(op, c)
			x := s.ix.get(op, codec, c)
			if x == nil || len(rs) < 2 {
				continue
			}
			n++
			if !slices.ContainsFunc(rs, func(r *results.Result) bool { return r != x && compare(stat(r), stat(x)) > 0 }) &&
				slices.ContainsFunc(rs, func(r *results.Result) bool { return r != x && compare(stat(r), stat(x)) < 0 }) {
				last++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s is the slowest (no codec slower with intervals apart) in %d of the %d dataset, shape and op comparisons it was measured in", text(codec), last, n)
}

// versus compares a with b on c: each op's times with the verdict for a,
// and the sizes.
func (s *writer) versus(a, b string, c category) string {
	var parts []string
	for _, op := range results.Ops {
		ra, rb := s.ix.get(op, a, c), s.ix.get(op, b, c)
		if ra == nil || rb == nil {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s %s vs %s %s, %s", op, text(a), durCI(ra), text(b), durCI(rb), verdict(a, ra, rb)))
	}
	if len(parts) == 0 {
		return ""
	}
	sa, sb := s.ix.size(a, c), s.ix.size(b, c)
	if sa >= 0 && sb >= 0 && sb > 0 {
		parts = append(parts, fmt.Sprintf("%s %s against %s %s (%s)", text(a), bytes(sa), text(b), bytes(sb), sizeDiff(sa, sb)))
	}
	return strings.Join(parts, "; ")
}

// sizeDiff says how much smaller or larger a is than b.
func sizeDiff(a, b int) string {
	switch {
	case a < b:
		return fmt.Sprintf("%.0f%% smaller", 100*float64(b-a)/float64(b))
	case a > b:
		return fmt.Sprintf("%.0f%% larger", 100*float64(a-b)/float64(b))
	}
	return "the same size"
}

// roundTrips lists the round trips of the given codecs on c, fastest
// first, each with its size and its factor over the fastest.
func (s *writer) roundTrips(c category, codecs ...string) string {
	type trip struct {
		codec string
		v     interval
		size  int
	}
	var ts []trip
	for _, name := range codecs {
		e, d := s.ix.get(results.Encode, name, c), s.ix.get(results.Decode, name, c)
		if e == nil || d == nil {
			continue
		}
		ts = append(ts, trip{name, stat(e).plus(stat(d)), e.Bytes})
	}
	if len(ts) < 2 {
		return ""
	}
	slices.SortStableFunc(ts, func(a, b trip) int { return cmpFloat(a.v.median, b.v.median) })
	var parts []string
	for i, t := range ts {
		p := fmt.Sprintf("%s %s in %s", text(t.codec), dur(t.v.median), bytes(t.size))
		if i > 0 {
			switch {
			case !comparable(t.v, ts[0].v):
				p += fmt.Sprintf(" (%s slower than %s by median; no interval)", ratio(t.v.median/ts[0].v.median), text(ts[0].codec))
			case compare(t.v, ts[0].v) == 0:
				p += fmt.Sprintf(" (tied with %s)", text(ts[0].codec))
			default:
				p += fmt.Sprintf(" (%s slower than %s)", ratio(t.v.median/ts[0].v.median), text(ts[0].codec))
			}
		}
		parts = append(parts, p)
	}
	return "round trips " + strings.Join(parts, ", ")
}
