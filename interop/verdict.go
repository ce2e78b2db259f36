package interop

import (
	"fmt"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// An Answer says whether a Go codec's data is portable to a language,
// and on what condition: "yes", "yes, with useBigInt64: true
// (@msgpack/msgpack)", "no: map-int-key, neg-zero".
type Answer struct {
	Codec  string `json:"codec"`
	Lang   Lang   `json:"lang"`
	Answer string `json:"answer"`
}

// Portability answers, for each Go codec of m and each language, whether
// what it writes crosses to that language and back: yes when one of the
// language's peers in its defaults crosses every case tried with the same
// value; "yes, with" the settings of the first careful variant that does;
// else the best column's losses, or the cases that do not cross.
func Portability(m *results.Matrix) []Answer {
	var out []Answer
	var codecs []string
	for _, c := range m.Codecs {
		name, _, _ := ParseColumn(c.Name)
		if !slices.Contains(codecs, name) {
			codecs = append(codecs, name)
		}
	}
	for _, cn := range codecs {
		for _, r := range Runtimes {
			if a := answer(m, cn, r); a != "" {
				out = append(out, Answer{Codec: cn, Lang: r.Lang, Answer: a})
			}
		}
	}
	return out
}

// a column of one codec and language, judged.
type judged struct {
	peer    Peer
	variant Variant
	verdict results.Verdict
	bad     []string // probes with a cell neither good nor n/a
	losses  []string // the losses' notes
}

func answer(m *results.Matrix, codecName string, r Runtime) string {
	var cols []judged
	skipped := ""
	for _, c := range m.Codecs {
		cn, pn, vn := ParseColumn(c.Name)
		if cn != codecName {
			continue
		}
		p, err := LookupPeer(pn)
		if err != nil || p.Lang != r.Lang {
			continue
		}
		j := judged{peer: p, verdict: m.Verdict(c.Name)}
		for _, v := range p.Variants {
			if v.Name == vn {
				j.variant = v
			}
		}
		for i, cell := range m.Row(c.Name) {
			if cell == nil {
				continue
			}
			switch cell.Outcome {
			case Skipped:
				skipped = cell.Detail
			case Loss:
				if !slices.Contains(j.losses, cell.Note) {
					j.losses = append(j.losses, cell.Note)
				}
			case RefusedPeer, RefusedGo, Changed, Crash:
				if g := m.Cases[i].Group; !slices.Contains(j.bad, g) {
					j.bad = append(j.bad, g)
				}
			}
		}
		if j.verdict.Verdict != "not run" {
			cols = append(cols, j)
		}
	}
	if len(cols) == 0 {
		if skipped != "" {
			return "not run: " + strings.TrimPrefix(skipped, ErrUnavailable.Error()+": ")
		}
		return ""
	}
	var yes []string
	for _, j := range cols {
		if j.variant.Name == "" && j.verdict.Verdict == "yes" {
			yes = append(yes, j.peer.Lib)
		}
	}
	if len(yes) > 0 {
		return "yes (" + strings.Join(yes, ", ") + ")"
	}
	for _, j := range cols {
		if j.variant.Name != "" && j.verdict.Verdict == "yes" {
			return fmt.Sprintf("yes, with %s (%s)", j.variant.Sets, j.peer.Lib)
		}
	}
	// The column with the fewest probes that do not cross, the defaults
	// first where they tie.
	best := slices.MinFunc(cols, func(a, b judged) int { return len(a.bad) - len(b.bad) })
	name := best.peer.Lib
	if best.variant.Sets != "" {
		name += " with " + best.variant.Sets
	}
	if len(best.bad) == 0 {
		return fmt.Sprintf("yes, with losses: %s (%s)", strings.Join(best.losses, "; "), name)
	}
	return fmt.Sprintf("no: %s (at best, %s)", list(best.bad, 8), name)
}

// list joins items, naming at most n and counting the rest.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// NewRollup returns m's portability answers as the matrix's rollup: a row
// per Go codec, a column per language.
func NewRollup(m *results.Matrix) *results.Rollup {
	r := &results.Rollup{Title: "Portable to?",
		About: "Per Go codec and language: yes when a peer in its defaults crosses every case tried (in all three directions) with the same value; " +
			"\"yes, with\" the settings of a careful variant that does; else the losses or the cases that do not cross with the best peer."}
	for _, rt := range Runtimes {
		r.Columns = append(r.Columns, rt.Label)
	}
	for _, a := range Portability(m) {
		if len(r.Rows) == 0 || r.Rows[len(r.Rows)-1].Name != a.Codec {
			r.Rows = append(r.Rows, results.RollupRow{Name: a.Codec, Cells: make([]string, len(Runtimes))})
		}
		i := slices.IndexFunc(Runtimes, func(rt Runtime) bool { return rt.Lang == a.Lang })
		r.Rows[len(r.Rows)-1].Cells[i] = a.Answer
	}
	return r
}
