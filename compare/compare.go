package compare

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/results"
)

// A Set is the samples of one file: values by benchmark name and unit.
type Set struct {
	File    string
	samples map[key][]float64
	order   []key
}

type key struct{ name, unit string }

var gomaxprocs = regexp.MustCompile(`-[0-9]+$`)

// Read reads Go benchmark format (a serbench results.bench or `go test
// -bench` output). A malformed line is a *benchfmt.SyntaxError naming
// file and line; so is a last line without its newline, the mark of a
// file cut short (a copy or a write that did not finish).
func Read(r io.Reader, file string) (*Set, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		return nil, &benchfmt.SyntaxError{FileName: file, Line: bytes.Count(data, []byte("\n")) + 1,
			Msg: "truncated: the file ends inside this line, without its newline; compare a complete file (or, if it is complete, end it with a newline)"}
	}
	if err := strict(data, file); err != nil {
		return nil, err
	}
	s := &Set{File: file, samples: map[key][]float64{}}
	br := benchfmt.NewReader(bytes.NewReader(data), file)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			// go test appends -GOMAXPROCS; serbench records it as config.
			name := gomaxprocs.ReplaceAllString(string(rec.Name.Full()), "")
			if serbenchFile(data) {
				if err := strictUnits(rec); err != nil {
					return nil, err
				}
			}
			for _, v := range rec.Values {
				k := key{name, v.Unit}
				if _, ok := s.samples[k]; !ok {
					s.order = append(s.order, k)
				}
				s.samples[k] = append(s.samples[k], v.Value)
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(s.order) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results found", file)
	}
	return s, nil
}

// serbenchFile reports whether data is a results.bench serbench wrote:
// its configuration names serbench's version.
func serbenchFile(data []byte) bool {
	return bytes.HasPrefix(data, []byte("serbench: ")) || bytes.Contains(data, []byte("\nserbench: "))
}

// configLine matches a configuration line of Go's benchmark format: a
// key that starts with a lower-case letter and holds no space or
// upper-case letter, a colon, and a value.
var configLine = regexp.MustCompile(`^[a-z][^\sA-Z:]*:(\s|$)`)

// strict returns a *benchfmt.SyntaxError for the first line of a file
// serbench wrote that is neither a benchmark, a unit nor a configuration
// line: go test's output holds other text, which benchfmt skips, but in
// serbench's own file such a line is a corrupted one, whose samples would
// be dropped without a word.
func strict(data []byte, file string) error {
	if !serbenchFile(data) {
		return nil
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "",
			strings.HasPrefix(line, "Benchmark"), strings.HasPrefix(line, "Unit "), strings.HasPrefix(line, "#"),
			configLine.MatchString(line):
		default:
			return &benchfmt.SyntaxError{FileName: file, Line: i + 1,
				Msg: "corrupt: neither a benchmark, a unit nor a configuration line, in a file serbench wrote; its samples would be lost: compare an intact copy, or render it again with serbench report"}
		}
	}
	return nil
}

// strictUnits returns a *benchfmt.SyntaxError when a benchmark line of a
// file serbench wrote lacks ns/op, which serbench writes on every line
// but a count's (instructions/op),
// or has a unit that is not printable: a corrupted unit would file the
// sample under another name, lost to the comparison.
func strictUnits(r *benchfmt.Result) error {
	found := false
	for _, v := range r.Values {
		found = found || v.OrigUnit == "ns/op" || v.Unit == results.UnitInstructions // a unit benchfmt leaves as it is has no OrigUnit
		if strings.IndexFunc(v.OrigUnit, func(c rune) bool { return !unicode.IsPrint(c) }) >= 0 {
			found = false
			break
		}
	}
	if found {
		return nil
	}
	f, n := r.Pos()
	return &benchfmt.SyntaxError{FileName: f, Line: n,
		Msg: "corrupt: a benchmark line without ns/op, or with a unit that is not printable, in a file serbench wrote; compare an intact copy, or render it again with serbench report"}
}

// Names returns the names of the set's benchmarks, in the file's order.
func (s *Set) Names() []string {
	var names []string
	for _, k := range s.order {
		if !slices.Contains(names, k.name) {
			names = append(names, k.name)
		}
	}
	return names
}

// Only returns the names of the benchmarks in a that b lacks, in a's
// order: those a comparison of a with b leaves out.
func Only(a, b *Set) []string {
	have := map[string]bool{}
	for _, k := range b.order {
		have[k.name] = true
	}
	var out []string
	for _, n := range a.Names() {
		if !have[n] {
			out = append(out, n)
		}
	}
	return out
}

// A Row compares one benchmark and unit across the two sets.
type Row struct {
	Name, Unit string
	Old, New   benchmath.Summary
	Cmp        benchmath.Comparison
}

// Significant reports whether the difference is statistically significant.
func (r Row) Significant() bool { return r.Cmp.P <= r.Cmp.Alpha }

// Delta is benchstat's delta column: "~" when not significant.
func (r Row) Delta() string { return r.Cmp.FormatDelta(r.Old.Center, r.New.Center) }

// ErrNothingInCommon reports two files without a benchmark in common.
var ErrNothingInCommon = errors.New("compare: the two files have no benchmark name and unit in common")

// Merge pools sets into one named file: every benchmark's samples from
// all of them, in the order the benchmarks first appear.
func Merge(file string, sets ...*Set) *Set {
	m := &Set{File: file, samples: map[key][]float64{}}
	for _, s := range sets {
		for _, k := range s.order {
			if _, ok := m.samples[k]; !ok {
				m.order = append(m.order, k)
			}
			m.samples[k] = append(m.samples[k], s.samples[k]...)
		}
	}
	return m
}

// Compare compares the benchmarks present in both sets, in old's order.
func Compare(old, new *Set) ([]Row, error) {
	var rows []Row
	th := &benchmath.DefaultThresholds
	for _, k := range old.order {
		nv, ok := new.samples[k]
		if !ok {
			continue
		}
		o := benchmath.NewSample(slices.Clone(old.samples[k]), th)
		n := benchmath.NewSample(slices.Clone(nv), th)
		row := Row{
			Name: k.name, Unit: k.unit,
			Old: benchmath.AssumeNothing.Summary(o, 0.95),
			New: benchmath.AssumeNothing.Summary(n, 0.95),
			Cmp: benchmath.AssumeNothing.Compare(o, n),
		}
		if k.unit == results.UnitInstructions {
			row.Old, row.New = spread(old.samples[k]), spread(nv)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, ErrNothingInCommon
	}
	return rows, nil
}

// An Inversion is a pair of codecs whose order flipped between the sets
// within one group (the benchmark name without its codec=... part).
type Inversion struct {
	Group          string
	A, B           string  // codecs, A faster than B in old
	OldGap, NewGap float64 // B/A - 1 of the medians in old and in new (negative: flipped)
}

// Ranking checks, for the given unit (usually "sec/op"), whether every
// pair of codecs in the same group kept its order. A pair is ordered in a
// set when the 95% intervals of its two medians are apart there; only a
// pair ordered in both sets is judged, and it flipped when its order in
// new is the reverse of old's. A pair whose intervals overlap on either
// side was not decided by the runs and is never reported as a flip.
// Ranking returns the number of pairs judged and the ones that flipped.
func Ranking(rows []Row, unit string) (pairs int, inv []Inversion) {
	type entry struct {
		codec    string
		old, new benchmath.Summary
	}
	groups := map[string][]entry{}
	var order []string
	for _, r := range rows {
		if r.Unit != unit {
			continue
		}
		g, codec := splitCodec(r.Name)
		if codec == "" {
			continue
		}
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], entry{codec, r.Old, r.New})
	}
	for _, g := range order {
		es := groups[g]
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				a, b := es[i], es[j]
				if a.old.Center > b.old.Center {
					a, b = b, a
				}
				if !apart(a.old, b.old) || !apart(a.new, b.new) {
					continue
				}
				pairs++
				if b.new.Center < a.new.Center {
					inv = append(inv, Inversion{Group: g, A: a.codec, B: b.codec,
						OldGap: b.old.Center/a.old.Center - 1, NewGap: b.new.Center/a.new.Center - 1})
				}
			}
		}
	}
	return pairs, inv
}

// apart reports whether the intervals of x and y do not overlap, by
// serbench's one interval rule (results.Apart): an unknown interval is
// never apart from anything.
func apart(x, y benchmath.Summary) bool {
	return results.Apart(interval(x), interval(y))
}

// interval converts a benchmath summary into a results.Interval: infinite
// bounds (too few samples for an interval) are unknown, and a summary of
// no width is exact (a size or a count, zero included).
func interval(s benchmath.Summary) results.Interval {
	switch {
	case math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0):
		return results.Interval{Mid: s.Center}
	case s.Lo == s.Hi:
		return results.Exact(s.Center)
	}
	return results.Interval{Mid: s.Center, Lo: s.Lo, Hi: s.Hi}
}

// spread summarizes the counts of the processes that counted one
// benchmark (instructions/op, a line each) by the one rule for counts,
// results.Spread: their median between their smallest and largest, and
// infinite bounds (unknown) for one count.
func spread(xs []float64) benchmath.Summary {
	v := results.Spread(xs)
	if !v.Known() {
		return benchmath.Summary{Center: v.Mid, Lo: math.Inf(-1), Hi: math.Inf(1), Confidence: 1}
	}
	return benchmath.Summary{Center: v.Mid, Lo: v.Lo, Hi: v.Hi, Confidence: 1}
}

// splitCodec removes the codec=NAME part from a benchmark name.
func splitCodec(name string) (group, codec string) {
	parts := strings.Split(name, "/")
	var rest []string
	for _, p := range parts {
		if v, ok := strings.CutPrefix(p, "codec="); ok {
			codec = v
			continue
		}
		rest = append(rest, p)
	}
	return strings.Join(rest, "/"), codec
}

// Agreement summarizes how close the medians of unit are between the two
// sets: how many lie within ±tol (0.05 for 5%) and the largest relative
// difference with its benchmark's name.
func Agreement(rows []Row, unit string, tol float64) (within, total int, worst float64, worstName string) {
	for _, r := range rows {
		if r.Unit != unit || r.Old.Center == 0 {
			continue
		}
		total++
		d := r.New.Center/r.Old.Center - 1
		if math.Abs(d) <= tol {
			within++
		}
		if math.Abs(d) > math.Abs(worst) {
			worst, worstName = d, r.Name
		}
	}
	return within, total, worst, worstName
}

// SignificantBeyond counts the rows of unit whose difference is both
// significant (benchstat's Mann-Whitney U test, Row.Significant) and
// larger than tol of the old center: the disagreements that the runs' own
// noise does not explain. total counts the rows compared, as Agreement's.
func SignificantBeyond(rows []Row, unit string, tol float64) (n, total int) {
	for _, r := range rows {
		if r.Unit != unit || r.Old.Center == 0 {
			continue
		}
		total++
		if r.Significant() && math.Abs(r.New.Center/r.Old.Center-1) > tol {
			n++
		}
	}
	return n, total
}

// Spread is how much each set's repeated runs of one benchmark disagree
// with each other: the middle, over the benchmarks of unit, of each side's
// relative 95% interval of the median (benchstat's ± column: the larger of
// Hi/Center-1 and 1-Lo/Center). A side whose interval is unknown (too few
// runs) is left out of its middle; a side with none is NaN.
func Spread(rows []Row, unit string) (old, new float64) {
	var olds, news []float64
	for _, r := range rows {
		if r.Unit != unit {
			continue
		}
		if x, ok := relRange(r.Old); ok {
			olds = append(olds, x)
		}
		if x, ok := relRange(r.New); ok {
			news = append(news, x)
		}
	}
	return middle(olds), middle(news)
}

func relRange(s benchmath.Summary) (float64, bool) {
	if s.Center <= 0 || math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0) {
		return 0, false
	}
	return math.Max(s.Hi/s.Center-1, 1-s.Lo/s.Center), true
}

// middle returns the median of xs (benchmath's, as benchstat's centre),
// NaN for none.
func middle(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), 0.95).Center
}
