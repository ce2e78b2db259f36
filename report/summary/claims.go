package summary

import (
	"fmt"

	"github.com/serbench/serbench/claims"
)

// claims checks the seed articles' claims (package claims) against the
// run: each claim the run holds the data for is quoted with the article's
// figure, this run's and the verdict; the others are left out.
// REPRODUCTION.md (serbench reproduce) runs what every claim needs.
func (s *writer) claims() {
	var items []string
	for _, c := range claims.All {
		o := claims.Check(c, s.ix.run.Results)
		if o.Verdict == claims.Untestable {
			continue
		}
		item := fmt.Sprintf("Seed %s (%s), **%s**: \"%s\"", c.Seed, c.ID, o.Verdict, text(c.Quote))
		if c.Figure != "" {
			item += fmt.Sprintf(" The article: %s.", text(c.Figure))
		}
		item += fmt.Sprintf(" Here: %s.", text(o.Figure))
		if o.Reason != "" {
			item += fmt.Sprintf(" Why: %s.", text(o.Reason))
		}
		items = append(items, item)
	}
	if len(items) == 0 {
		return
	}
	s.p("")
	s.p("## The seed articles' claims against this run")
	s.p("")
	s.p("Quoted claims are the articles'; the figures after \"Here\" are this run's, ratios of medians with the ratio of the")
	s.p("intervals' ends in brackets. A round trip is encode plus decode. `serbench reproduce` runs what every claim needs.")
	s.p("")
	for _, it := range items {
		s.p("- %s", it)
	}
}
