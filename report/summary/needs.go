package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// maxExcluded is the most excluded codecs the answer lists one by one.
const maxExcluded = 12

// needs writes what the user's needs (run -need) did to the answers: the
// needs, the codecs that meet them, and each codec left out before timing
// with the first need it lacks and its evidence; when none meets them all,
// the nearest ones and what each lacks.
func (s *writer) needs() {
	n := s.ix.run.Needs
	if n == nil || len(n.Wanted) == 0 {
		return
	}
	var meet, excluded []string
	for _, c := range n.Codecs {
		if n.Meets(c.Codec) {
			meet = append(meet, c.Codec)
		} else {
			excluded = append(excluded, c.Codec)
		}
	}
	head := fmt.Sprintf("Your needs: %s (run -need).", text(strings.Join(n.Wanted, ", ")))
	if len(meet) == 0 {
		s.p("%s", head)
		slices.SortStableFunc(excluded, func(a, b string) int { return len(n.Lacks(a)) - len(n.Lacks(b)) })
		s.p("**No codec meets all of these.** The nearest, with what each lacks:")
		s.p("")
		for _, c := range excluded[:min(3, len(excluded))] {
			s.p("- %s", lacking(n, c, true))
		}
		s.p("")
		return
	}
	s.p("%s %d of %d candidates meet every one and were measured: %s. The answers below are among them alone.", head, len(meet), len(n.Codecs), text(strings.Join(meet, ", ")))
	if len(excluded) == 0 {
		s.p("")
		return
	}
	for _, d := range n.Displaced {
		s.p("Without these needs, the run this directory held before answered %s: **%s** (%s); it lacks %s.", text(strings.ToLower(d.Question)), text(d.Codec), text(d.Detail), text(lackList(n, d.Codec)))
	}
	s.p("Left out before timing, each with the first need it lacks:")
	s.p("")
	for i, c := range excluded {
		if i == maxExcluded {
			s.p("- and %d more (results.json's needs holds every judgement)", len(excluded)-maxExcluded)
			break
		}
		s.p("- %s", lacking(n, c, false))
	}
	s.p("")
}

// lackList names the wanted needs codec lacks.
func lackList(n *results.Needs, codec string) string {
	var out []string
	for _, j := range n.Lacks(codec) {
		out = append(out, j.Need)
	}
	return strings.Join(out, ", ")
}

// lacking names codec with the needs it does not meet: the first, or all.
func lacking(n *results.Needs, codec string, all bool) string {
	l := n.Lacks(codec)
	if !all {
		l = l[:min(1, len(l))]
	}
	var parts []string
	for _, j := range l {
		what := "lacks " + j.Need
		if j.Status == results.NeedUnknown {
			what = j.Need + " not known"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", what, shorten(j.Why, 160)))
	}
	return fmt.Sprintf("**%s**: %s", text(codec), text(strings.Join(parts, "; ")))
}

// warnings writes, for a run without -need, one line naming the answers'
// codecs that a study beside the run warns about: a verdict reached on an
// outcome of a bad tone (a crash, a value changed or lost).
func (s *writer) warnings(answers []Answer) {
	if n := s.ix.run.Needs; n != nil && len(n.Wanted) > 0 || len(s.ix.run.Matrices) == 0 {
		return
	}
	var named []string
	for _, a := range answers {
		for _, c := range []string{a.Winner, a.RunnerUp} {
			if c != "" && !slices.Contains(named, c) {
				named = append(named, c)
			}
		}
	}
	var parts []string
	for _, c := range named {
		var ws []string
		for _, m := range s.ix.run.Matrices {
			if w, ok := warning(m, c); ok {
				ws = append(ws, w)
			}
		}
		if len(ws) > 0 {
			parts = append(parts, fmt.Sprintf("**%s**: %s", text(c), text(strings.Join(ws, "; "))))
		}
	}
	if len(parts) == 0 {
		return
	}
	s.p("Before you adopt one: %s. (serbench run -need names what you need and leaves out the codecs that fail it.)", strings.Join(parts, "; "))
	s.p("")
}

// warning returns codec's verdict in m in a few words when a rule with an
// outcome of a bad tone gave it.
func warning(m *results.Matrix, codec string) (string, bool) {
	if !slices.ContainsFunc(m.Codecs, func(c results.MatrixCodec) bool { return c.Name == codec }) {
		return "", false
	}
	v := m.Verdict(codec)
	for _, r := range m.Study.Rules {
		if r.Verdict != v.Verdict {
			continue
		}
		for _, o := range r.When {
			if m.Study.Kind(o).Tone == results.ToneBad {
				return fmt.Sprintf("%s %q (%s)", m.Study.Name, v.Verdict, strings.TrimSuffix(shorten(v.Why, 120), ".")), true
			}
		}
	}
	return "", false
}

// shorten cuts s to at most n runes, at a word, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}
