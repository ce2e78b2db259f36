package claims

import (
	"slices"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/results"
)

// A Verdict is what a run says about a claim.
type Verdict string

// The verdicts.
const (
	Holds   Verdict = "holds"
	Caveat  Verdict = "holds with a caveat"
	NotHold Verdict = "does not hold"
	// Undecided: measured, and the medians side with the claim, but the
	// intervals overlap: the noise of this run cannot tell; a larger
	// -budget or a quieter machine may.
	Undecided Verdict = "undecided within noise"
	// NotMeasured: the run's time (-time) ended before the claim's cases
	// were measured; a longer -time, or -claims with this one, tests it.
	NotMeasured Verdict = "not measured: time ran out"
	// Untestable: the claim cannot be tested by serbench, or could not be
	// measured in this run (a crash, a case not run).
	Untestable Verdict = "cannot be tested here"
)

// Verdicts lists the verdicts in display order.
var Verdicts = []Verdict{Holds, Caveat, NotHold, Undecided, NotMeasured, Untestable}

// A Rule says how an experiment's results give a verdict.
type Rule string

// The rules. A and B are the experiment's first two codecs (or, for
// LighterData, its first two datasets); the others are its rivals.
const (
	// Better: A's figure is below B's (faster, smaller or lighter) in
	// every case, with the intervals apart. The ratio is B's over A's.
	Better Rule = "better"
	// Best: A's figure is below every other codec's in every case.
	Best Rule = "best"
	// Worst: A's figure is above every other codec's in most cases.
	Worst Rule = "worst"
	// LighterData: codec A's figure on the first dataset is below its
	// figure on the second, in each shape.
	LighterData Rule = "lighter-data"
	// Refuses: codec A cannot encode the dataset (skipped, failed or an
	// error), in every case.
	Refuses Rule = "refuses"
	// RoundTrips: every codec of the experiment round-trips the
	// dataset, verified, in every case.
	RoundTrips Rule = "round-trips"
	// None: the claim cannot be tested here (Claim.Untestable says why).
	None Rule = "none"
)

// A Measure is the figure an experiment compares.
type Measure string

// The measures.
const (
	EncodeTime Measure = "encode"     // ns/op of the encode
	DecodeTime Measure = "decode"     // ns/op of the decode
	RoundTrip  Measure = "round trip" // encode plus decode, ns
	Size       Measure = "size"       // bytes of one encoded message
	Memory     Measure = "memory"     // B/op allocated by encode plus decode
)

// An Experiment names what a claim needs measured: every codec on every
// dataset in every shape listed.
type Experiment struct {
	Measure  Measure
	Codecs   []string
	Datasets []string
	Shapes   []dataset.Shape
}

// A Claim is one claim of a seed article.
type Claim struct {
	// ID names the claim on the command line: the seed and a few words.
	ID string
	// Seed is the article's number, "000" to "004".
	Seed string
	// Quote is the article's own words, verbatim.
	Quote string
	// Figure is the article's figure for it, in words ("7.6× faster").
	Figure string
	// Ratio is the article's figure as B's over A's, where it gives one.
	Ratio float64
	Rule  Rule
	Test  Experiment
	// Reason says why the article's experiment may read otherwise than
	// serbench's: given with a verdict other than Holds.
	Reason string
	// Untestable says why the claim cannot be tested here (Rule None).
	Untestable string

	// byCounts makes a claim of time judged on the instructions its ops
	// were counted to run instead (see Check).
	byCounts bool
}

// Lookup returns the claims with the given IDs, in the order given, or an
// error naming every unknown ID.
func Lookup(ids []string) ([]Claim, error) {
	var out []Claim
	var bad []string
	for _, id := range ids {
		i := slices.IndexFunc(All, func(c Claim) bool { return c.ID == id })
		if i < 0 {
			bad = append(bad, id)
			continue
		}
		out = append(out, All[i])
	}
	if len(bad) > 0 {
		known := make([]string, len(All))
		for i, c := range All {
			known[i] = c.ID
		}
		return nil, suggest.Check("claim", bad, known, nil, "serbench list claims")
	}
	return out, nil
}

// IDs returns every claim's ID, in order.
func IDs() []string {
	ids := make([]string, len(All))
	for i, c := range All {
		ids[i] = c.ID
	}
	return ids
}

// Cases returns the dataset shapes the claim's experiment covers that
// exist (datasets without slices have the single shape only).
func (c *Claim) Cases() []Case {
	var out []Case
	for _, name := range c.Test.Datasets {
		d, err := dataset.Lookup(name)
		if err != nil {
			continue
		}
		for _, s := range c.Test.Shapes {
			if d.Has(s) {
				out = append(out, Case{Dataset: name, Shape: string(s)})
			}
		}
	}
	return out
}

// A Case is one dataset shape.
type Case struct{ Dataset, Shape string }

func (k Case) String() string { return k.Dataset + "/" + k.Shape }

// Ops returns the operations the claim's experiment needs measured.
func (c *Claim) Ops() []results.Op {
	switch c.Test.Measure {
	case EncodeTime, Size:
		return []results.Op{results.Encode}
	case DecodeTime:
		return []results.Op{results.Decode}
	case "":
		return nil
	}
	return results.Ops
}
