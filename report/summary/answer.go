package summary

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// A question is one of the answers the summary opens with: a score of a
// codec on a category (lower is better), and whether two codecs'
// figures there are apart beyond their intervals (known is false when
// either has no interval, so a tie cannot be told from a lack of data).
type question struct {
	title string
	unit  string // "slower", "larger"
	score func(ix *index, codec string, c category) (float64, bool)
	apart func(ix *index, a, b string, c category) (apart, known bool)
}

// questions are the summary's opening answers, in order.
var questions = []question{
	{"Smallest encoding", "larger", sizeScore, func(*index, string, string, category) (bool, bool) { return true, true }},
	{"Fastest encode", "slower", opScore(results.Encode), opApart(results.Encode)},
	{"Fastest decode", "slower", opScore(results.Decode), opApart(results.Decode)},
	{"Best balance (round-trip time × size)", "behind", balanceScore, roundTripApart},
}

func sizeScore(ix *index, codec string, c category) (float64, bool) {
	n := ix.size(codec, c)
	return float64(n), n > 0
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

func opApart(op results.Op) func(*index, string, string, category) (bool, bool) {
	return func(ix *index, a, b string, c category) (bool, bool) {
		ra, rb := ix.get(op, a, c), ix.get(op, b, c)
		if ra == nil || rb == nil {
			return false, false
		}
		return apart(stat(ra), stat(rb))
	}
}

// apart reports whether two intervals are apart, and whether both are
// known so that the answer means something.
func apart(a, b interval) (bool, bool) {
	return compare(a, b) != 0, comparable(a, b)
}

// roundTrip returns codec's encode plus decode on c, bound to bound.
func roundTrip(ix *index, codec string, c category) (interval, bool) {
	e, d := ix.get(results.Encode, codec, c), ix.get(results.Decode, codec, c)
	if e == nil || d == nil {
		return interval{}, false
	}
	return stat(e).plus(stat(d)), true
}

// balanceScore is the round trip's time times the encoding's size: a
// codec twice as fast and twice as large as another balances the same.
func balanceScore(ix *index, codec string, c category) (float64, bool) {
	rt, ok := roundTrip(ix, codec, c)
	n := ix.size(codec, c)
	return rt.median * float64(n), ok && n > 0
}

func roundTripApart(ix *index, a, b string, c category) (bool, bool) {
	ra, oka := roundTrip(ix, a, c)
	rb, okb := roundTrip(ix, b, c)
	if !oka || !okb {
		return false, false
	}
	return apart(ra, rb)
}

// answer writes the summary's opening: the codecs that took part, then
// for each question the codec that answers it over the run's categories,
// by the geometric mean of its score relative to each category's best,
// with the runner-up's margin and in how many categories the two stand
// apart beyond their intervals. A codec must be measured in at least
// three quarters of the categories to answer: one that holds only an
// integer does not win "overall".
func (s *writer) answer() {
	ix := s.ix
	if ix.ok == 0 {
		return // nothing measured, nothing to answer
	}
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
	for _, q := range questions {
		s.p("- %s", s.answerTo(q, &flagged))
	}
	s.p("")
	s.p("Each answer is the codec with the lowest geometric mean, over the dataset shapes, of its figure relative to the best there;")
	s.p("\"apart\" counts the shapes where the two codecs' intervals do not overlap (elsewhere they are within noise).")
	s.p("")
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

// answerTo answers one question.
func (s *writer) answerTo(q question, flagged *[]string) string {
	ix := s.ix
	best := map[category]float64{}
	for _, c := range ix.cats {
		for _, codec := range ix.codecs {
			if v, ok := q.score(ix, codec, c); ok && (best[c] == 0 || v < best[c]) {
				best[c] = v
			}
		}
	}
	type standing struct {
		codec string
		gmean float64
		n     int
		wins  int
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
	if len(st) == 0 {
		return fmt.Sprintf("**%s**: no codec was measured in three quarters of the dataset shapes.", q.title)
	}
	slices.SortStableFunc(st, func(a, b standing) int { return cmpFloat(a.gmean, b.gmean) })
	w := st[0]
	out := fmt.Sprintf("**%s: %s**, best in %d of the %d dataset shapes it was measured on", q.title, ix.name(w.codec, flagged), w.wins, w.n)
	if len(st) == 1 {
		return out + "; no other codec was measured on enough of them to compare."
	}
	r := st[1]
	m := q.margin(ix, w.codec, r.codec)
	out += fmt.Sprintf("; next %s, %s %s", text(r.codec), ratio(m.factor), q.unit)
	if q.unit != "larger" {
		out += m.words()
	}
	return out + "."
}

// A margin is how a question's runner-up stands against its winner over
// the categories both hold: the geometric mean of the runner-up's score
// over the winner's, and in how many categories both have intervals and
// these stand apart.
type margin struct {
	factor               float64
	shared, known, apart int
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
		if apart, known := q.apart(ix, w, r, c); known {
			m.known++
			if apart {
				m.apart++
			}
		}
	}
	m.factor = math.Exp(logs / float64(max(m.shared, 1)))
	return m
}

// words says how far apart beyond noise the two codecs stand, calling it a
// tie only where intervals say so: shapes without an interval on either
// side are counted apart, as neither tied nor apart.
func (m margin) words() string {
	if m.known == 0 {
		return fmt.Sprintf(", with no interval to compare in the %d shapes both hold", m.shared)
	}
	out := fmt.Sprintf(", apart beyond noise in %d of the %d shapes both hold", m.apart, m.shared)
	if m.known < m.shared {
		out = fmt.Sprintf(", apart beyond noise in %d of the %d shapes where both have an interval (no interval to compare in %d more)",
			m.apart, m.known, m.shared-m.known)
	}
	if 2*m.apart < m.known {
		out += " (mostly within noise: call it a tie)"
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
