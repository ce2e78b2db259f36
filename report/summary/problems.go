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

// problems writes the failures, errors, skips, intervals that missed
// their target, and the run's warnings.
func (s *writer) problems() {
	run := s.ix.run
	var ok int
	var bad, implausible []*results.Result
	type skip struct {
		codec, reason string
		cats          []string
	}
	var skips []*skip
	var missed []string
	for i := range run.Results {
		r := &run.Results[i]
		switch r.Status {
		case results.OK:
			ok++
			if r.Implausible != "" {
				implausible = append(implausible, r)
			}
			if !r.TargetMet {
				missed = append(missed, r.Codec)
			}
		case results.Skipped:
			reason := typePrefix.ReplaceAllString(r.ShortReason(), "")
			i := slices.IndexFunc(skips, func(k *skip) bool { return k.codec == r.Codec && k.reason == reason })
			if i < 0 {
				skips = append(skips, &skip{codec: r.Codec, reason: reason})
				i = len(skips) - 1
			}
			if c := (category{Dataset: r.Dataset, Shape: r.Shape}).String(); !slices.Contains(skips[i].cats, c) {
				skips[i].cats = append(skips[i].cats, c)
			}
		default:
			bad = append(bad, r)
		}
	}
	if len(run.Results) == 0 {
		return
	}
	s.p("")
	s.p("## Failures and skips")
	s.p("")
	s.p("%d of %d results were verified and measured (%d of them implausible, left out of the rankings); %d failed or errored; %d were skipped.",
		ok, len(run.Results), len(implausible), len(bad), len(run.Results)-ok-len(bad))
	if len(implausible) > 0 {
		s.p("")
		for _, r := range implausible {
			s.p("- **implausible** %s %s on %s: %s", r.Op, text(r.Codec), text(category{Dataset: r.Dataset, Shape: r.Shape}.String()), text(r.Implausible))
		}
	}
	if len(bad) > 0 {
		s.p("")
		for _, r := range bad {
			s.p("- **%s** %s %s on %s: %s", r.Status, r.Op, text(r.Codec), text(category{Dataset: r.Dataset, Shape: r.Shape}.String()), text(r.ShortReason()))
		}
	}
	if len(skips) > 0 {
		s.p("")
		s.p("Skipped, by codec and reason:")
		s.p("")
		for _, k := range skips {
			s.p("- %s, %d case(s) (%s): %s", text(k.codec), len(k.cats), text(strings.Join(k.cats, ", ")), text(k.reason))
		}
	}
	if len(missed) > 0 {
		target := run.Options.Target
		s.p("")
		var per []string
		for _, name := range s.ix.codecs {
			if n := countOf(missed, name); n > 0 {
				per = append(per, fmt.Sprintf("%s %d", name, n))
			}
		}
		s.p("%d measured result(s) did not narrow their interval to ±%.0f%% within the budget (by codec: %s); results.csv lists them (target_met false).",
			len(missed), 100*target, text(strings.Join(per, ", ")))
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
