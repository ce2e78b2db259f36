package summary

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/serbench/serbench/report/matrix"
	"github.com/serbench/serbench/results"
)

// A question is one of the answers the summary opens with: a score of a
// codec on a category (lower is better), and which side of two codecs'
// figures there is ahead beyond their intervals (results.Compare's
// answer: known is false when either has no interval, so that a tie is not
// told from a lack of data).
type question struct {
	title string
	unit  string // "slower", "larger"
	score func(ix *index, codec string, c category) (float64, bool)
	side  func(ix *index, a, b string, c category) (side int, known bool)
}

// questions are the summary's opening answers, in order.
var questions = []question{
	{"Smallest encoding", "larger", sizeScore, sizeSide},
	{"Fastest encode", "slower", opScore(results.Encode), opSide(results.Encode)},
	{"Fastest decode", "slower", opScore(results.Decode), opSide(results.Decode)},
	{"Best balance (round-trip time × size)", "behind", balanceScore, balanceSide},
}

func sizeScore(ix *index, codec string, c category) (float64, bool) {
	n := ix.size(codec, c)
	return float64(n), n > 0
}

// sizeSide compares two sizes: exact figures, apart whenever they differ.
func sizeSide(ix *index, a, b string, c category) (int, bool) {
	return results.Compare(results.Exact(float64(ix.size(a, c))), results.Exact(float64(ix.size(b, c))))
}

func opScore(op results.Op) func(*index, string, category) (float64, bool) {
	return func(ix *index, codec string, c category) (float64, bool) {
		r := ix.get(op, codec, c)
		if r == nil {
			return 0, false
		}
		return r.NsPerOp.Median, true
	}
}

func opSide(op results.Op) func(*index, string, string, category) (int, bool) {
	return func(ix *index, a, b string, c category) (int, bool) {
		ra, rb := ix.get(op, a, c), ix.get(op, b, c)
		if ra == nil || rb == nil {
			return 0, false
		}
		return results.Compare(stat(ra), stat(rb))
	}
}

// balance returns codec's round trip on c (encode plus decode, bound to
// bound) times its encoding's size: a codec twice as fast and twice as
// large as another balances the same.
func balance(ix *index, codec string, c category) (results.Interval, bool) {
	e, d := ix.get(results.Encode, codec, c), ix.get(results.Decode, codec, c)
	n := ix.size(codec, c)
	if e == nil || d == nil || n <= 0 {
		return results.Interval{}, false
	}
	return stat(e).Plus(stat(d)).Times(float64(n)), true
}

func balanceScore(ix *index, codec string, c category) (float64, bool) {
	b, ok := balance(ix, codec, c)
	return b.Mid, ok
}

func balanceSide(ix *index, a, b string, c category) (int, bool) {
	ba, oka := balance(ix, a, c)
	bb, okb := balance(ix, b, c)
	if !oka || !okb {
		return 0, false
	}
	return results.Compare(ba, bb)
}

// An Answer is one of the four answers a run gives (smallest encoding,
// fastest encode, fastest decode, best balance), as summary.md and
// report.html both open with it. Winner is empty when there is no clear
// winner: no runner-up, or the two within noise of each other, or without
// intervals to tell them apart.
type Answer struct {
	Question string
	Winner   string
	// Dagger says the winner's comparisons are not like for like
	// (results.Codec.Flags).
	Dagger bool
	// RunnerUp is the codec second by the geometric mean, "" if none.
	RunnerUp string
	// Detail is the rest of the answer in plain text: the margin and how
	// far apart beyond noise, or why there is no clear winner.
	Detail string
}

// Answers returns the run's four answers, nil when nothing was measured,
// with the codecs left out of them: those that errored in a dataset shape
// (a crash, a hang) and those with an implausible figure there.
func Answers(run *results.Run) ([]Answer, []string) {
	ix := newIndex(run)
	if ix.ok == 0 {
		return nil, nil
	}
	var out []Answer
	for _, q := range questions {
		out = append(out, q.answer(ix))
	}
	return out, ix.leftOut()
}

// answer writes the summary's opening: the codecs that took part, then
// the four answers (Answers) and what they leave out.
func (s *writer) answer() {
	answers, leftOut := Answers(s.ix.run)
	if answers == nil {
		if n := s.ix.run.Needs; n != nil && len(n.Wanted) > 0 {
			s.p("## The answer")
			s.p("")
			s.needs() // why nothing was measured
		}
		return // nothing measured, nothing to answer
	}
	ix := s.ix
	var flagged []string
	var names, absent []string
	for _, c := range ix.codecs {
		if ix.measuredAny(c) {
			names = append(names, ix.name(c, &flagged))
		} else {
			absent = append(absent, text(c))
		}
	}
	s.p("## The answer")
	s.p("")
	line := fmt.Sprintf("Codecs in this run: %s; %d dataset shapes (%s).", strings.Join(names, ", "), len(ix.cats), catList(ix.cats))
	if len(absent) > 0 {
		line += fmt.Sprintf(" Not measured (skipped or failed on every shape; see Failures and skips): %s.", strings.Join(absent, ", "))
	}
	s.p("%s", line)
	s.p("")
	s.needs()
	for _, a := range answers {
		s.p("- %s", a.markdown())
	}
	s.p("")
	if lines := adoptCosts(answers, s.ix.run.Matrices); len(lines) > 0 {
		for _, l := range lines {
			s.p("- %s", l)
		}
		s.p("")
	}
	for _, l := range leftOut {
		s.p("%s", text(l))
	}
	if len(leftOut) > 0 {
		s.p("")
	}
	s.warnings(answers)
	s.p("Each answer is the codec with the lowest geometric mean, over the dataset shapes, of its figure relative to the best there,")
	s.p("named only when a runner-up stands behind it beyond noise (its interval apart) in most of the shapes both hold;")
	s.p("\"ahead beyond noise\" counts those shapes (elsewhere the two are within noise, or have no interval to compare).")
	s.p("")
}

// adoptCosts returns, when a cost matrix (serbench cost) is beside the
// run, a "cost to adopt" line for each codec an answer names, once: its
// row of the matrix, each case with its figure.
func adoptCosts(answers []Answer, ms []*results.Matrix) []string {
	var out []string
	for _, m := range ms {
		if m.Study.Name != "cost" {
			continue
		}
		var seen []string
		for _, a := range answers {
			if a.Winner == "" || slices.Contains(seen, a.Winner) {
				continue
			}
			seen = append(seen, a.Winner)
			if row := matrix.RowText(m, a.Winner); row != "" {
				out = append(out, fmt.Sprintf("**Cost to adopt %s**: %s.", text(a.Winner), text(row)))
			}
		}
	}
	return out
}

// markdown renders an answer as a line of summary.md.
func (a Answer) markdown() string {
	if a.Winner == "" {
		return fmt.Sprintf("**%s**: %s.", text(a.Question), text(a.Detail))
	}
	name := text(a.Winner)
	if a.Dagger {
		name += "†"
	}
	return fmt.Sprintf("**%s: %s**, %s.", text(a.Question), name, text(a.Detail))
}

func catList(cs []category) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	if len(out) > 6 {
		out = append(out[:6], "...")
	}
	return strings.Join(out, ", ")
}

// A standing is a codec's place on a question: the geometric mean of its
// score relative to the best in each category it holds.
type standing struct {
	codec string
	gmean float64
	n     int
	wins  int
}

// standings ranks the codecs on q by their geometric mean, best first. A
// codec must be measured in at least three quarters of the categories to
// stand: one that holds only an integer does not win "overall".
func (q question) standings(ix *index) []standing {
	best := map[category]float64{}
	for _, c := range ix.cats {
		for _, codec := range ix.codecs {
			if v, ok := q.score(ix, codec, c); ok && (best[c] == 0 || v < best[c]) {
				best[c] = v
			}
		}
	}
	var st []standing
	for _, codec := range ix.codecs {
		var logs float64
		n, wins := 0, 0
		for _, c := range ix.cats {
			if v, ok := q.score(ix, codec, c); ok && best[c] > 0 {
				logs += math.Log(v / best[c])
				n++
				if v == best[c] {
					wins++
				}
			}
		}
		if n > 0 && 4*n >= 3*len(best) {
			st = append(st, standing{codec, math.Exp(logs / float64(n)), n, wins})
		}
	}
	slices.SortStableFunc(st, func(a, b standing) int { return cmp.Compare(a.gmean, b.gmean) })
	return st
}

// answer answers q: the codec first by geometric mean, named the winner
// only when the runner-up stands behind it beyond noise in most of the
// categories both hold.
func (q question) answer(ix *index) Answer {
	a := Answer{Question: q.title}
	st := q.standings(ix)
	switch len(st) {
	case 0:
		a.Detail = "no codec was measured in three quarters of the dataset shapes"
		return a
	case 1:
		a.Detail = fmt.Sprintf("no clear winner: only %s was measured on enough of the dataset shapes to compare (%d of %d)", st[0].codec, st[0].n, len(ix.cats))
		return a
	}
	w, r := st[0], st[1]
	a.RunnerUp = r.codec
	m := q.margin(ix, w.codec, r.codec)
	if !m.clear() {
		a.Detail = "no clear winner: " + m.noWinner(w.codec, r.codec, q.unit, q.exact())
		return a
	}
	a.Winner, a.Dagger = w.codec, len(ix.flags(w.codec)) > 0
	a.Detail = fmt.Sprintf("best in %d of the %d dataset shapes it was measured on; next %s, %s %s%s",
		w.wins, w.n, r.codec, ratio(m.factor), q.unit, m.words(q.exact()))
	return a
}

// A margin is how a question's runner-up stands against its winner over
// the categories both hold: the geometric mean of the runner-up's score
// over the winner's, in how many categories both have intervals, and in
// how many of those the winner is ahead beyond them, or behind.
type margin struct {
	factor                       float64
	shared, known, ahead, behind int
}

// margin returns how codec r stands against codec w on q.
func (q question) margin(ix *index, w, r string) margin {
	var m margin
	var logs float64
	for _, c := range ix.cats {
		a, oka := q.score(ix, w, c)
		b, okb := q.score(ix, r, c)
		if !oka || !okb {
			continue
		}
		m.shared++
		logs += math.Log(b / a)
		if side, known := q.side(ix, w, r, c); known {
			m.known++
			switch {
			case side < 0:
				m.ahead++
			case side > 0:
				m.behind++
			}
		}
	}
	m.factor = math.Exp(logs / float64(max(m.shared, 1)))
	return m
}

// clear reports whether the margin names a winner: ahead beyond noise in
// most of the categories both hold. A category without an interval to
// compare counts against it: a lack of data defends no winner.
func (m margin) clear() bool { return 2*m.ahead > m.shared }

// exact reports whether q's figures are exact (sizes), without noise.
func (q question) exact() bool { return q.unit == "larger" }

// words says in how many categories the winner stands ahead beyond noise,
// or, of exact figures, is ahead.
func (m margin) words(exact bool) string {
	if exact {
		return fmt.Sprintf(", smaller in %d of the %d shapes both hold", m.ahead, m.shared)
	}
	out := fmt.Sprintf(", ahead beyond noise in %d of the %d shapes both hold", m.ahead, m.shared)
	if m.known < m.shared {
		out = fmt.Sprintf(", ahead beyond noise in %d of the %d shapes where both have an interval (no interval to compare in %d more)",
			m.ahead, m.known, m.shared-m.known)
	}
	return out
}

// measuredAny reports whether codec has a verified and measured result.
func (ix *index) measuredAny(codec string) bool {
	for _, r := range ix.run.Results {
		if r.Codec == codec && r.Status == results.OK {
			return true
		}
	}
	return false
}

// noWinner says why w, first by its geometric mean, is not named over r.
func (m margin) noWinner(w, r, unit string, exact bool) string {
	lead := fmt.Sprintf("%s is first by the geometric mean, %s %s %s", w, r, ratio(m.factor), unit)
	switch {
	case exact && m.ahead == 0 && m.behind == 0:
		return fmt.Sprintf("%s and %s are the same size in the %d shapes both hold", w, r, m.shared)
	case exact:
		return fmt.Sprintf("%s is smaller than %s in only %d of the %d shapes both hold (%s)", w, r, m.ahead, m.shared, lead)
	case m.known == 0:
		return fmt.Sprintf("%s and %s have no interval to compare in the %d shapes both hold (%s)", w, r, m.shared, lead)
	}
	out := fmt.Sprintf("%s and %s within noise (%s, but ahead beyond noise in only %d of the %d shapes both hold", w, r, lead, m.ahead, m.shared)
	if m.known < m.shared {
		out += fmt.Sprintf("; no interval to compare in %d of them", m.shared-m.known)
	}
	return out + ")"
}

// leftOut says, one line per kind, which codecs the rankings leave out
// and where: those that errored (a crash, a hang, a timeout) and those
// with an implausible figure (results.MarkImplausible).
func (ix *index) leftOut() []string {
	var errored, implausible []string
	for _, c := range ix.cats {
		e, i := ix.absent(c)
		for _, name := range e {
			errored = append(errored, name+" on "+c.String())
		}
		for _, name := range i {
			implausible = append(implausible, name+" on "+c.String())
		}
	}
	var out []string
	if len(errored) > 0 {
		out = append(out, "Not ranked where they crashed or errored (their reasons are with the failures below): "+strings.Join(errored, ", ")+".")
	}
	if len(implausible) > 0 {
		out = append(out, "Not ranked where a figure of theirs is implausible: "+strings.Join(implausible, ", ")+".")
	}
	return out
}

// absent returns the codecs that c's rankings leave out although they
// were run there: those with a result that errored, and those whose cell
// holds an implausible figure.
func (ix *index) absent(c category) (errored, implausible []string) {
	add := func(list *[]string, codec string) {
		if !slices.Contains(*list, codec) {
			*list = append(*list, codec)
		}
	}
	for _, cell := range ix.cells.Cells(c) {
		for _, r := range []*results.Result{cell.Encode, cell.Decode} {
			switch {
			case r == nil:
			case r.Status == results.Error:
				add(&errored, cell.Codec)
			case r.Status == results.OK && r.Implausible != "":
				add(&implausible, cell.Codec)
			}
		}
	}
	return errored, implausible
}
