package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// An Outcome is a claim's verdict on one run: serbench's figure (with its
// interval, case by case) and, when the verdict is not Holds, why.
type Outcome struct {
	Claim   Claim
	Verdict Verdict
	Figure  string
	Reason  string
	// ByCounts says the verdict is the instruction counts' (a claim of
	// time that time left undecided on this machine; see Check).
	ByCounts bool
}

// marginFactor: a claim that holds with a ratio more than this factor
// away from the article's holds with a caveat.
const marginFactor = 2

// A figure is one measure of one codec on one case, with its interval
// (Lo = Hi = Mid for an exact figure such as a size): results.Interval,
// whose rule holds here as in every report: a time without an interval is
// never apart from another.
type figure = results.Interval

// Check computes the claim's verdict from a run's results. A claim about
// time (CPU work: an encode, a decode, a round trip) that time leaves
// undecided, its medians siding with it but the intervals overlapping,
// gets a second witness where the run counted instructions (run -measure
// both): the counts, two of them ordered only when they differ by more
// than results.CountGap, decide it, and the outcome says so (ByCounts).
func Check(c Claim, rs []results.Result) Outcome {
	o := check(c, rs)
	if o.Verdict != Undecided || !aboutTime(c.Test.Measure) || !counted(rs) {
		return o
	}
	cc := c
	cc.byCounts = true
	byCounts := check(cc, rs)
	switch {
	case byCounts.Verdict == Untestable || byCounts.Verdict == NotHold && byCounts.Figure == "":
		return o // some of its cases were not counted
	case byCounts.Verdict == Undecided:
		o.Reason += fmt.Sprintf("; the instruction counts differ by less than %.0f%%, so they do not decide it either", 100*results.CountGap)
		return o
	}
	byCounts.Claim, byCounts.ByCounts = c, true
	why := "time left it undecided on this machine (the intervals overlap); instruction counts, which a busy machine does not move, decide it"
	if byCounts.Reason != "" {
		why += ": " + byCounts.Reason
	}
	byCounts.Reason = why
	return byCounts
}

// aboutTime reports whether a claim of measure m is about CPU work, which
// instruction counts witness too.
func aboutTime(m Measure) bool { return m == EncodeTime || m == DecodeTime || m == RoundTrip }

// counted reports whether any of rs was counted.
func counted(rs []results.Result) bool {
	for i := range rs {
		if rs[i].InstrPerOp > 0 {
			return true
		}
	}
	return false
}

// countFigure is a count as a figure: its interval spans results.CountGap,
// so that two counts closer than that are tied.
func countFigure(n float64) figure {
	return figure{Mid: n, Lo: n * (1 - results.CountGap/2), Hi: n * (1 + results.CountGap/2)}
}

// check is Check on one measure.
func check(c Claim, rs []results.Result) Outcome {
	o := Outcome{Claim: c}
	if c.Rule == None {
		o.Verdict, o.Reason = Untestable, c.Untestable
		return o
	}
	ix := map[string]*results.Result{}
	for i := range rs {
		ix[rs[i].Key()] = &rs[i]
	}
	get := func(codec string, k Case, op results.Op) *results.Result {
		r := results.Result{Op: op, Codec: codec, Dataset: k.Dataset, Shape: k.Shape}
		return ix[r.Key()]
	}
	switch c.Rule {
	case Refuses, RoundTrips:
		return c.status(o, get)
	case LighterData:
		return c.lighter(o, get)
	}
	return c.compare(o, get)
}

type getter func(codec string, k Case, op results.Op) *results.Result

// measure returns codec's figure on case k, or why there is none: a
// result missing from the run, or one that failed.
func (c *Claim) measure(codec string, k Case, get getter) (figure, string) {
	var f figure
	for i, op := range c.Ops() {
		r := get(codec, k, op)
		if r == nil {
			return f, fmt.Sprintf("%s %s on %s was not measured in this run", codec, op, k)
		}
		if r.Status != results.OK {
			return f, fmt.Sprintf("%s %s on %s %s: %s", codec, op, k, r.Status, r.ShortReason())
		}
		var part figure
		switch c.Test.Measure {
		case Size:
			return results.Exact(float64(r.Bytes)), ""
		case Memory:
			part = results.Exact(r.BPerOp)
		default:
			part = r.NsPerOp.Interval()
			if c.byCounts {
				if r.InstrPerOp <= 0 {
					return f, fmt.Sprintf("%s %s on %s was not counted", codec, op, k)
				}
				part = countFigure(r.InstrPerOp)
			}
		}
		if i == 0 {
			f = part
		} else {
			f = f.Plus(part)
		}
	}
	return f, ""
}

// cutShortWhy ends the reason of a result the run's time did not reach.
const cutShortWhy = "was cut short: the run's time ended before it (-time)"

// unmeasured says which of the experiment's results on case k the run
// lacks, or holds as an error of the harness's (a crash, a timeout)
// rather than a verdict on the codec; it returns "" when it has them
// all. A codec that failed verification, or was skipped, is measured: that
// is its answer.
func (c *Claim) unmeasured(k Case, get getter) string {
	for _, codec := range c.Test.Codecs {
		for _, op := range c.Ops() {
			r := get(codec, k, op)
			if r == nil {
				return fmt.Sprintf("%s %s on %s was not measured in this run", codec, op, k)
			}
			if r.CutShort {
				return fmt.Sprintf("%s %s on %s %s", codec, op, k, cutShortWhy)
			}
			if r.Status == results.Error && c.Rule != Refuses {
				return fmt.Sprintf("%s %s on %s could not be measured: %s", codec, op, k, r.ShortReason())
			}
		}
	}
	return ""
}

// compare applies Better, Best and Worst: A against each rival, case by
// case.
func (c *Claim) compare(o Outcome, get getter) Outcome {
	a, rivals := c.Test.Codecs[0], c.Test.Codecs[1:]
	var figs, fails []string
	wins, cases := 0, 0
	var ratios []float64
	var missing []string
	undecided := 0 // cases whose medians side with the claim, their intervals overlapping
	for _, k := range c.Cases() {
		if why := c.unmeasured(k, get); why != "" {
			missing = append(missing, why)
			continue
		}
		fa, why := c.measure(a, k, get)
		if why != "" {
			fails = append(fails, why)
			continue
		}
		cases++
		won, lost, leans := true, true, true
		for _, b := range rivals {
			fb, why := c.measure(b, k, get)
			if why != "" {
				fails = append(fails, why)
				won, lost = false, false
				continue
			}
			ratio := fb.Over(fa)
			if c.Rule == Better {
				ratios = append(ratios, ratio.Mid)
			}
			// A is better than b when its figure lies wholly below b's;
			// without an interval on either side it is neither.
			side, _ := results.Compare(fa, fb)
			won = won && side < 0
			lost = lost && side > 0
			if c.Rule == Worst {
				leans = leans && ratio.Mid < 1
			} else {
				// A ratio whose interval stays below half the article's
				// does not side with a claim of that figure.
				top := ratio.Hi
				if !ratio.Known() {
					top = ratio.Mid
				}
				leans = leans && ratio.Mid > 1 && (c.Ratio == 0 || top*marginFactor >= c.Ratio)
			}
			figs = append(figs, fmt.Sprintf("%s %s against %s: %s", k, c.Test.Measure, b, ratioText(ratio)))
		}
		if c.Rule == Worst {
			won = lost
		}
		if won {
			wins++
		} else if leans {
			undecided++
		}
	}
	o.Figure = strings.Join(figs, "; ")
	switch {
	case len(fails) == 0 && len(figs) == 0:
		o.Verdict, o.Reason = Untestable, strings.Join(missing, "; ")
		if slices.ContainsFunc(missing, func(m string) bool { return strings.Contains(m, cutShortWhy) }) {
			o.Verdict = NotMeasured
		}
		return o
	case cases == 0 || len(figs) == 0:
		o.Verdict, o.Reason = NotHold, strings.Join(fails, "; ")
		if c.Reason != "" {
			o.Reason += " (" + c.Reason + ")"
		}
		return o
	case c.Rule == Worst && 2*wins > cases && len(fails) == 0:
		o.Verdict = Holds // the claim says "mostly"
	case wins == cases && len(fails) == 0:
		o.Verdict = Holds
		if m := geomean(ratios); c.Ratio > 0 && m > 0 && (m > c.Ratio*marginFactor || m < c.Ratio/marginFactor) {
			o.Verdict = Caveat
			o.Reason = fmt.Sprintf("by %.3g× where the article says %.3g×", m, c.Ratio)
			if c.Reason != "" {
				o.Reason += ": " + c.Reason
			}
		}
	case wins == 0 && undecided == cases && len(fails) == 0:
		o.Verdict = Undecided
		o.Reason = "the medians side with the claim but the intervals overlap (or, with too few samples, are unknown); a larger -budget narrows them"
	case (2*wins > cases || wins+undecided == cases) && len(fails) == 0:
		o.Verdict = Caveat
		o.Reason = fmt.Sprintf("in %d of %d cases with the intervals apart", wins, cases)
		if undecided > 0 {
			o.Reason += fmt.Sprintf("; in %d more the medians agree but the intervals overlap (undecided on this machine)", undecided)
		}
		if c.Reason != "" {
			o.Reason += ": " + c.Reason
		}
	default:
		o.Verdict, o.Reason = NotHold, strings.Join(append(fails, c.Reason), "; ")
		o.Reason = strings.Trim(o.Reason, "; ")
	}
	return o
}

// lighter applies LighterData: codec A on the first dataset against
// itself on the second, shape by shape.
func (c *Claim) lighter(o Outcome, get getter) Outcome {
	a := c.Test.Codecs[0]
	var figs, fails []string
	wins, leans, cases := 0, 0, 0
	for _, s := range c.Test.Shapes {
		k1, k2 := Case{c.Test.Datasets[0], string(s)}, Case{c.Test.Datasets[1], string(s)}
		f1, why1 := c.measure(a, k1, get)
		f2, why2 := c.measure(a, k2, get)
		if why1 != "" || why2 != "" {
			fails = append(fails, strings.Trim(why1+"; "+why2, "; "))
			continue
		}
		cases++
		ratio := f2.Over(f1)
		switch side, _ := results.Compare(f1, f2); {
		case side < 0:
			wins++
		case side == 0 && ratio.Mid > 1:
			leans++
		}
		figs = append(figs, fmt.Sprintf("%s %s: %s %s, %s %s (%s)", a, c.Test.Measure, k2, ns(f2), k1, ns(f1), ratioText(ratio)))
	}
	o.Figure = strings.Join(figs, "; ")
	switch {
	case cases == 0:
		o.Verdict, o.Reason = Untestable, strings.Join(fails, "; ")
	case wins == cases:
		o.Verdict = Holds
	case wins+leans == cases:
		o.Verdict = Undecided
		o.Reason = "the medians side with the claim but the intervals overlap (or, with too few samples, are unknown); a larger -budget narrows them"
	default:
		o.Verdict, o.Reason = NotHold, c.Reason
	}
	return o
}

// status applies Refuses and RoundTrips.
func (c *Claim) status(o Outcome, get getter) Outcome {
	var figs []string
	agree, cases := 0, 0
	cut := false
	for _, k := range c.Cases() {
		for _, codec := range c.Test.Codecs {
			r := get(codec, k, results.Encode)
			if r == nil || r.CutShort {
				cut = cut || r != nil
				continue // not measured: neither for nor against the claim
			}
			cases++
			ok := r.Status == results.OK
			if ok {
				figs = append(figs, fmt.Sprintf("%s on %s: round trip verified, %d B", codec, k, r.Bytes))
			} else {
				figs = append(figs, fmt.Sprintf("%s on %s: %s (%s)", codec, k, r.Status, r.ShortReason()))
			}
			if ok == (c.Rule == RoundTrips) {
				agree++
			}
		}
	}
	o.Figure = strings.Join(figs, "; ")
	switch {
	case cases == 0 && cut:
		o.Verdict, o.Reason = NotMeasured, "the run's time ended before its cases (-time)"
	case cases == 0:
		o.Verdict, o.Reason = Untestable, "not measured in this run"
	case agree == cases:
		o.Verdict = Holds
	default:
		o.Verdict, o.Reason = NotHold, c.Reason
	}
	return o
}

// ratioText formats a ratio with its interval: "7.1× (6.8–7.5)", "7.1×
// (no interval)".
func ratioText(f figure) string {
	switch {
	case !f.Known():
		return fmt.Sprintf("%.3g× (no interval)", f.Mid)
	case f.Lo == f.Mid && f.Hi == f.Mid:
		return fmt.Sprintf("%.3g×", f.Mid)
	}
	return fmt.Sprintf("%.3g× (%.3g–%.3g)", f.Mid, f.Lo, f.Hi)
}

// ns formats a time or size figure with its interval.
func ns(f figure) string {
	switch {
	case !f.Known():
		return fmt.Sprintf("%.4g (no interval)", f.Mid)
	case f.Lo == f.Mid && f.Hi == f.Mid:
		return fmt.Sprintf("%.4g", f.Mid)
	}
	return fmt.Sprintf("%.4g (%.4g–%.4g)", f.Mid, f.Lo, f.Hi)
}

// geomean returns the geometric mean of xs, 0 for none.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}
