// Package reproduction writes REPRODUCTION.md: each selected claim of the
// seed articles with the article's figure, serbench's figure from a run
// with its interval, the verdict (claims.Check) and, when the claim does
// not simply hold, the reason.
package reproduction

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/results"
)

// Command is the command that regenerates REPRODUCTION.md at the
// repository's root.
const Command = "serbench reproduce"

// Write writes the reproduction of cs from run as Markdown.
func Write(w io.Writer, run *results.Run, cs []claims.Claim) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format+"\n", args...) }
	cs = slices.Clone(cs)
	slices.SortStableFunc(cs, func(a, b claims.Claim) int { return strings.Compare(a.Seed, b.Seed) })
	outcomes := make([]claims.Outcome, len(cs))
	count := map[claims.Verdict]int{}
	for i, c := range cs {
		outcomes[i] = claims.Check(c, run.Results)
		count[outcomes[i].Verdict]++
	}
	p("# The seed articles' claims, reproduced")
	p("")
	var tally []string
	for _, v := range claims.Verdicts {
		tally = append(tally, fmt.Sprintf("%s: %d", v, count[v]))
	}
	p("%d claims. %s.", len(cs), strings.Join(tally, "; "))
	p("")
	e := run.Env
	load := ""
	if e.Load != "" {
		load = ", load average " + e.Load + " as it started"
	}
	p("Measured by serbench %s with %s on %s/%s, %s (%d CPUs, GOMAXPROCS %d), %s%s; %d benchmarks in %v.",
		e.Serbench, e.GoVersion, e.GOOS, e.GOARCH, e.CPU, e.NumCPU, e.GOMAXPROCS, e.Date, load, len(run.Results),
		time.Duration(run.Elapsed).Round(time.Second))
	p("Regenerate it with `%s` (see docs/reproduce.md). Figures are ratios of medians, B's over A's as each claim names them,", Command)
	p("with the ratio of the intervals' ends in brackets; a round trip is encode plus decode. Every figure comes from a verified round trip.")
	for _, w := range run.Warnings {
		p("")
		p("> Warning: %s", w)
	}
	seed := ""
	for _, o := range outcomes {
		c := o.Claim
		if c.Seed != seed {
			seed = c.Seed
			p("")
			p("## Seed %s: %s", seed, claims.Articles[seed])
		}
		p("")
		p("### %s: %s", c.ID, o.Verdict)
		p("")
		p("> %s", c.Quote)
		p("")
		if c.Figure != "" {
			p("- The article: %s.", c.Figure)
		}
		if c.Rule != claims.None {
			p("- The experiment: %s.", experiment(c))
		}
		if o.Figure != "" {
			here := "Here"
			if o.ByCounts {
				here = "Here, in instructions counted"
			}
			p("- %s: %s.", here, o.Figure)
		}
		if o.Reason != "" {
			p("- Why: %s.", strings.TrimSuffix(o.Reason, "."))
		}
	}
	return bw.Flush()
}

// experiment describes a claim's experiment in words.
func experiment(c claims.Claim) string {
	t := c.Test
	var shapes []string
	for _, s := range t.Shapes {
		shapes = append(shapes, string(s))
	}
	measure := string(t.Measure)
	if c.Rule == claims.Refuses || c.Rule == claims.RoundTrips {
		measure = "round trip"
	}
	what := fmt.Sprintf("%s of %s on %s (%s)", measure, strings.Join(t.Codecs, ", "), strings.Join(t.Datasets, ", "), strings.Join(shapes, ", "))
	switch c.Rule {
	case claims.Better:
		return what + fmt.Sprintf("; %s must beat %s in every case", t.Codecs[0], t.Codecs[1])
	case claims.Best:
		return what + fmt.Sprintf("; %s must beat every other in every case", t.Codecs[0])
	case claims.Worst:
		return what + fmt.Sprintf("; %s must be behind every other in most cases", t.Codecs[0])
	case claims.LighterData:
		return what + fmt.Sprintf("; %s must be faster than %s", t.Datasets[0], t.Datasets[1])
	case claims.Refuses:
		return what + "; the codec must refuse the value"
	case claims.RoundTrips:
		return what + "; every round trip must verify"
	}
	return what
}
