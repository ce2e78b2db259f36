package need

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// Judge judges every candidate on every want, and on every other need
// with its default arguments (for report.html's toggles), from the
// matrices at hand (by study name: of several of one study, the first
// holding the codec) and the candidates' facts.
func Judge(wants []Want, candidates []Facts, matrices []*results.Matrix) *results.Needs {
	n := &results.Needs{}
	all := slices.Clone(wants)
	for _, w := range wants {
		n.Wanted = append(n.Wanted, w.String())
	}
	for _, nd := range Needs {
		if !slices.ContainsFunc(wants, func(w Want) bool { return w.Need == nd }) {
			all = append(all, Want{Need: nd, Args: nd.Default})
		}
	}
	for _, w := range all {
		n.Judged = append(n.Judged, results.NeedInfo{Name: w.String(), Says: w.Need.Says})
	}
	for _, f := range candidates {
		c := results.NeedCodec{Codec: f.Name}
		for _, w := range all {
			j := w.judge(f, matrixOf(matrices, w.Need.Study, f.Name))
			j.Need = w.String()
			c.Judgements = append(c.Judgements, j)
		}
		n.Codecs = append(n.Codecs, c)
	}
	return n
}

// matrixOf returns the first of ms of study that holds codec (a row, or
// a row of its rollup), else the first of study, else nil.
func matrixOf(ms []*results.Matrix, study, codec string) *results.Matrix {
	var first *results.Matrix
	for _, m := range ms {
		if m.Study.Name != study {
			continue
		}
		if m.Holds(codec) {
			return m
		}
		if first == nil {
			first = m
		}
	}
	return first
}

func (w Want) judge(f Facts, m *results.Matrix) results.Judgement {
	n := w.Need
	if n.Declared != nil {
		return declared(n.Declared(f))
	}
	if why, ok := f.Outside[n.Study]; ok {
		return results.Judgement{Status: results.NeedFailed, Why: fmt.Sprintf("it takes no part in %s: %s", n.Study, why)}
	}
	if n.Rollup != "" {
		return rollup(n, f, m)
	}
	if m == nil || !slices.ContainsFunc(m.Codecs, func(c results.MatrixCodec) bool { return c.Name == f.Name }) {
		if n.Fallback != nil {
			j := declared(n.Fallback(f))
			j.Why = strings.TrimSpace(j.Why + " (declared; " + n.Study + " has not run for it)")
			return j
		}
		return results.Judgement{Status: results.NeedUnknown,
			Why: fmt.Sprintf("%s has not run for %s: %s -codecs %s", n.Study, f.Name, n.Run, f.Name)}
	}
	if n.Fact != nil {
		c := m.Cell(f.Name, n.FactCase)
		if c == nil || len(c.Facts) == 0 {
			return results.Judgement{Status: results.NeedUnknown,
				Why: fmt.Sprintf("%s has no %s figures for %s: %s -codecs %s", n.Study, n.FactCase, f.Name, n.Run, f.Name)}
		}
		return declared(n.Fact(c.Facts))
	}
	if n.Cases == nil {
		v := m.Verdict(f.Name)
		if slices.Contains(n.Verdicts, v.Verdict) {
			return results.Judgement{Status: results.NeedMet, Why: fmt.Sprintf("%s: %s", n.Study, v.Verdict)}
		}
		return results.Judgement{Status: results.NeedFailed, Why: fmt.Sprintf("%s: %q: %s", n.Study, v.Verdict, v.Why)}
	}
	var bad, untried []string
	picked := 0
	for _, c := range m.Cases {
		if !n.Cases(w.Args, c) {
			continue
		}
		picked++
		cell := m.Cell(f.Name, c.Name)
		if cell == nil {
			untried = append(untried, c.Name)
			continue
		}
		switch m.Study.Kind(cell.Outcome).Tone {
		case results.ToneGood, results.ToneFair:
		default:
			bad = append(bad, fmt.Sprintf("%s (%s)", c.Name, m.Study.What(cell)))
		}
	}
	switch {
	case picked == 0:
		return results.Judgement{Status: results.NeedUnknown, Why: fmt.Sprintf("%s has none of the cases %s names", n.Study, w)}
	case len(bad) > 0:
		return results.Judgement{Status: results.NeedFailed, Why: n.Study + ": " + strings.Join(bad, "; ")}
	case len(untried) > 0:
		return results.Judgement{Status: results.NeedUnknown,
			Why: fmt.Sprintf("%s has not run %s for %s: %s -codecs %s", n.Study, strings.Join(untried, ", "), f.Name, n.Run, f.Name)}
	}
	return results.Judgement{Status: results.NeedMet, Why: fmt.Sprintf("%s: every case of %s reads as it should", n.Study, w)}
}

// rollup judges a need a study's rollup decides: met when the codec's
// answer in the need's column starts with "yes".
func rollup(n *Need, f Facts, m *results.Matrix) results.Judgement {
	answer := RollupAnswer(m, n.Rollup, f.Name)
	switch {
	case answer == "":
		return results.Judgement{Status: results.NeedUnknown,
			Why: fmt.Sprintf("%s has not run for %s: %s -codecs %s", n.Study, f.Name, n.Run, f.Name)}
	case strings.HasPrefix(answer, "yes"):
		return results.Judgement{Status: results.NeedMet, Why: n.Study + ": " + answer}
	}
	return results.Judgement{Status: results.NeedFailed, Why: n.Study + ": " + answer}
}

// RollupAnswer returns the answer of m's rollup in column for the row
// named codecName, or "" when it has none.
func RollupAnswer(m *results.Matrix, column, codecName string) string {
	if m == nil || m.Rollup == nil {
		return ""
	}
	i := slices.Index(m.Rollup.Columns, column)
	for _, r := range m.Rollup.Rows {
		if r.Name == codecName && i >= 0 && i < len(r.Cells) {
			return r.Cells[i]
		}
	}
	return ""
}

func declared(ok bool, why string) results.Judgement {
	if ok {
		return results.Judgement{Status: results.NeedMet}
	}
	return results.Judgement{Status: results.NeedFailed, Why: why}
}

// Split returns the candidates of n that meet every need, and those that
// do not, in n's order.
func Split(n *results.Needs) (meet, excluded []string) {
	for _, c := range n.Codecs {
		if n.Meets(c.Codec) {
			meet = append(meet, c.Codec)
		} else {
			excluded = append(excluded, c.Codec)
		}
	}
	return meet, excluded
}

// Nearest returns up to k excluded codecs that fail the fewest needs,
// fewest first: the nearest answers when no codec meets them all.
func Nearest(n *results.Needs, k int) []string {
	_, ex := Split(n)
	slices.SortStableFunc(ex, func(a, b string) int { return len(n.Lacks(a)) - len(n.Lacks(b)) })
	return ex[:min(k, len(ex))]
}
