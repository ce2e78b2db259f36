package summary

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// typePrefix matches the part of a skip reason that names the Go type, so
// skips for the same cause group together.
var typePrefix = regexp.MustCompile(`^.*unsupported type \S+: `)

// A problemList is what went wrong in a run, in the run's order: the
// results that were measured but are implausible, those that failed or
// errored, the skips grouped by codec and reason, and per codec how many
// measured results missed their interval target.
type problemList struct {
	total, ok         int
	implausible, bad  []*results.Result
	skips             []*skip
	missed            []string // "codec n", in order of the codecs' first appearance
	nMissed, nSkipped int
}

// A skip is one codec's skips for one reason, with the categories skipped.
type skip struct {
	codec, reason string
	cats          []string
}

// problems returns the problems of the run.
func (ix *index) problems() problemList {
	rs := ix.run.Results
	pl := problemList{total: len(rs)}
	var missed []string
	for i := range rs {
		r := &rs[i]
		switch r.Status {
		case results.OK:
			pl.ok++
			if r.Implausible != "" {
				pl.implausible = append(pl.implausible, r)
			}
			if !r.TargetMet {
				missed = append(missed, r.Codec)
			}
		case results.Skipped:
			pl.nSkipped++
			pl.addSkip(r)
		default:
			pl.bad = append(pl.bad, r)
		}
	}
	pl.nMissed = len(missed)
	for _, name := range ix.codecs {
		if n := countOf(missed, name); n > 0 {
			pl.missed = append(pl.missed, fmt.Sprintf("%s %d", name, n))
		}
	}
	return pl
}

// addSkip adds a skipped result to the skip of its codec and reason, the
// reason without the Go type it names so that skips for one cause group.
func (pl *problemList) addSkip(r *results.Result) {
	reason := typePrefix.ReplaceAllString(r.ShortReason(), "")
	i := slices.IndexFunc(pl.skips, func(k *skip) bool { return k.codec == r.Codec && k.reason == reason })
	if i < 0 {
		pl.skips = append(pl.skips, &skip{codec: r.Codec, reason: reason})
		i = len(pl.skips) - 1
	}
	if c := (category{Dataset: r.Dataset, Shape: r.Shape}).String(); !slices.Contains(pl.skips[i].cats, c) {
		pl.skips[i].cats = append(pl.skips[i].cats, c)
	}
}

// problems writes the failures, errors, skips, intervals that missed
// their target, and the run's warnings.
func (s *writer) problems() {
	run := s.ix.run
	if len(run.Results) == 0 {
		return
	}
	pl := s.ix.problems()
	where := func(r *results.Result) string { return text(category{Dataset: r.Dataset, Shape: r.Shape}.String()) }
	s.p("")
	s.p("## Failures and skips")
	s.p("")
	s.p("%d of %d results were verified and measured (%d of them implausible, left out of the rankings); %d failed or errored; %d were skipped.",
		pl.ok, pl.total, len(pl.implausible), len(pl.bad), pl.nSkipped)
	if len(pl.implausible) > 0 {
		s.p("")
		for _, r := range pl.implausible {
			s.p("- **implausible** %s %s on %s: %s", r.Op, text(r.Codec), where(r), text(r.Implausible))
		}
	}
	if len(pl.bad) > 0 {
		s.p("")
		for _, r := range pl.bad {
			s.p("- **%s** %s %s on %s: %s", r.Status, r.Op, text(r.Codec), where(r), text(r.ShortReason()))
		}
	}
	if len(pl.skips) > 0 {
		s.p("")
		s.p("Skipped, by codec and reason:")
		s.p("")
		for _, k := range pl.skips {
			s.p("- %s, %d case(s) (%s): %s", text(k.codec), len(k.cats), text(strings.Join(k.cats, ", ")), text(k.reason))
		}
	}
	if pl.nMissed > 0 {
		s.p("")
		s.p("%d measured result(s) did not narrow their interval to ±%.0f%% within the budget (by codec: %s); results.csv lists them (target_met false).",
			pl.nMissed, 100*run.Options.Target, text(strings.Join(pl.missed, ", ")))
	}
	if len(run.Warnings) > 0 {
		s.p("")
		s.p("## Warnings")
		s.p("")
		for _, w := range run.Warnings {
			s.p("- %s", text(w))
		}
	}
}

func countOf(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
