package compare

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchmath"

	"github.com/serbench/serbench/results"
)

// DefaultThreshold is the relative change below which a significant
// change is not a regression: the threshold at which two runs of the same
// code, compared, flag at most 5% of their time comparisons on a shared
// 2-core machine (docs/compare.md gives the calibration).
const DefaultThreshold = 0.25

// ParseThreshold parses a relative change: "5%" or the fraction "0.05".
// It must lie in [0, 10] (0: every significant change counts).
func ParseThreshold(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = v, 0.01
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("compare: threshold %q is not a relative change: give a percentage (5%%) or a fraction (0.05)", s)
	}
	x *= scale
	if x < 0 || x > 10 {
		return 0, fmt.Errorf("compare: threshold %q out of range [0%%, 1000%%]", s)
	}
	return x, nil
}

// FormatThreshold formats a threshold as ParseThreshold reads it: 0.25 is
// "25%".
func FormatThreshold(x float64) string {
	return strconv.FormatFloat(100*x, 'f', -1, 64) + "%"
}

// Change is the relative change of the row's medians, new/old - 1: +Inf
// when old is zero and new is not, 0 when both are.
func (r Row) Change() float64 {
	switch {
	case r.Old.Center == r.New.Center:
		return 0
	case r.Old.Center == 0:
		return math.Inf(1)
	}
	return r.New.Center/r.Old.Center - 1
}

// higherIsBetter reports whether a larger value of unit is an improvement:
// a rate (MB/s, ops/s). Every other unit serbench and go test write is a
// cost (sec/op, B/op, allocs/op, B/msg).
func higherIsBetter(unit string) bool { return strings.HasSuffix(unit, "/s") }

// Worse reports whether the row's change is in the unit's bad direction.
func (r Row) Worse() bool {
	if higherIsBetter(r.Unit) {
		return r.Change() < 0
	}
	return r.Change() > 0
}

// A Gate judges a comparison. A row is flagged when its change is
// statistically significant (Row.Significant, benchstat's test), the 95%
// intervals of its two medians are apart (the rule Ranking judges flips
// by), and the change is larger than Threshold in either direction; a
// flagged row in its unit's bad direction is a regression. The intervals
// keep a shift of the machine's speed between the runs, which the U test
// alone calls significant whenever each run was steady, from failing the
// gate unless it is larger than both runs' own spread.
type Gate struct {
	Threshold float64 // relative change, 0.25 for 25%
	// Machines are how steadily the old and the new run's machine ran,
	// where their records say (nil where not): a time change within the
	// two speeds of a busy machine is undecided, not flagged (see hold).
	Machines [2]*results.Machine
}

// Flagged reports whether r changed significantly, with its intervals
// apart, by more than the threshold, in either direction.
func (g Gate) Flagged(r Row) bool {
	if !Gated(r.Unit) || math.Abs(r.New.Center-r.Old.Center) < Floor(r.Unit) {
		return false
	}
	if r.Unit == results.UnitInstructions {
		return flaggedCount(g, r)
	}
	// The margin keeps a change of exactly the threshold (110 against
	// 100 at 10%) within it despite rounding.
	return r.Significant() && apart(r.Old, r.New) && math.Abs(r.Change()) > g.Threshold+1e-9
}

// Gated reports whether the gate judges unit. The collector's figures per
// 1,000 operations (gc-cycles/kop, gc-cpu-ns/kop) are not judged: a
// sample spans a few collections at most, so they count whole cycles
// that fall in or out of it, and two runs of the same code differ by
// many times; the comparison still shows them.
func Gated(unit string) bool { return !strings.HasPrefix(unit, "gc-") }

// Floor returns the smallest change of unit the gate judges: less than a
// small allocation's bytes, or half an allocation, per operation is what
// the verification of a timed iteration and the runtime's accounting of
// allocations by span move between runs, not a change of the code.
func Floor(unit string) float64 {
	switch unit {
	case "B/op":
		return 16
	case "allocs/op":
		return 0.5
	}
	return 0
}

// Blind reports whether r's runs are too noisy to flag a change of the
// threshold's size: the relative widths of its two intervals (benchstat's
// ± column) add up to more than the threshold, so a change that large
// could leave them overlapping; or a side's interval is unknown (fewer
// than 6 samples).
func (g Gate) Blind(r Row) bool {
	if r.Unit == results.UnitInstructions {
		return false // a count is exact
	}
	o, ok1 := width(r.Old)
	n, ok2 := width(r.New)
	return !ok1 || !ok2 || o+n > g.Threshold
}

// width is the relative width of s's interval, 0 for an exact value (zero
// allocations included); false when it is unknown.
func width(s benchmath.Summary) (float64, bool) {
	if s.Lo == s.Hi {
		return 0, true
	}
	return relRange(s)
}

// Regression reports whether r is flagged and worse.
func (g Gate) Regression(r Row) bool { return g.Flagged(r) && r.Worse() }

// A Verdict is a gate's judgement of a comparison.
type Verdict struct {
	Threshold    float64
	Compared     int   // rows judged
	Significant  int   // rows with p ≤ α, whatever their size
	Blind        int   // rows too noisy to flag a change of the threshold's size (Gate.Blind)
	Regressions  []Row // flagged and worse, in the rows' order
	Improvements []Row // flagged and better
	// Counted is how many rows of time were left to the instructions
	// both runs counted for their benchmark (hold).
	Counted int
	// Undecided are the rows that would be flagged but whose change lies
	// within the two speeds of a busy run's machine (Speeds): time cannot
	// decide them.
	Undecided []Row
	// Waited are the rows of time that would be flagged but a side of
	// whose benchmark waited for the CPU (its wall time beyond its CPU
	// time by more than WaitTolerance): time cannot decide them.
	Waited []Row
	// Speeds is the slowdown of the busier run's machine in its busy
	// phases, 0 when neither run was busy.
	Speeds float64
	// Unstable are the rows of units gated only where stable (allocs/op,
	// cpu-sec/op) that would be flagged but whose runs' spread is too
	// wide to tell (Gate.Blind), and of B/op and allocs/op of an op whose
	// allocation is amortized (a fraction of an allocation per op).
	Unstable []Row
}

// Judge judges every row.
func (g Gate) Judge(rows []Row) Verdict {
	v := Verdict{Threshold: g.Threshold, Compared: len(rows), Speeds: g.speeds()}
	counted, waited, amortized := countedNames(rows), waitedNames(rows), amortizedNames(rows)
	for _, r := range rows {
		if r.Significant() {
			v.Significant++
		}
		if g.Blind(r) {
			v.Blind++
		}
		switch g.hold(r, counted, waited, amortized) {
		case byCounts:
			v.Counted++
			continue
		case bySpeeds:
			if g.Flagged(r) {
				v.Undecided = append(v.Undecided, r)
			}
			continue
		case byWait:
			if g.Flagged(r) {
				v.Waited = append(v.Waited, r)
			}
			continue
		case unstable:
			if g.Flagged(r) {
				v.Unstable = append(v.Unstable, r)
			}
			continue
		}
		switch {
		case g.Regression(r):
			v.Regressions = append(v.Regressions, r)
		case g.Flagged(r):
			v.Improvements = append(v.Improvements, r)
		}
	}
	return v
}

// A Geomean is the geometric mean of new/old over a codec's benchmarks of
// one unit (benchstat's geomean row, as a ratio), with the 95% interval of
// that mean over the benchmarks (benchmath.AssumeNormal of the log
// ratios): how consistently the codec moved, not how precisely each
// benchmark was measured. Lo and Hi are infinite with fewer than two
// benchmarks.
type Geomean struct {
	Codec         string // "" for every benchmark together
	Unit          string
	N             int // benchmarks with a nonzero median on both sides
	Ratio, Lo, Hi float64
}

// Geomeans returns, for unit, one Geomean per codec (in the order the
// codecs first appear in rows) and then one over all the rows. Medians of
// zero are left out, as benchstat leaves them out of its geomean. Rows
// without a codec= part count only towards the overall mean.
func Geomeans(rows []Row, unit string) []Geomean {
	logs := map[string][]float64{}
	var codecs []string
	var all []float64
	for _, r := range rows {
		if r.Unit != unit || r.Old.Center <= 0 || r.New.Center <= 0 {
			continue
		}
		l := math.Log(r.New.Center / r.Old.Center)
		all = append(all, l)
		_, c := splitCodec(r.Name)
		if c == "" {
			continue
		}
		if _, ok := logs[c]; !ok {
			codecs = append(codecs, c)
		}
		logs[c] = append(logs[c], l)
	}
	var out []Geomean
	for _, c := range codecs {
		out = append(out, geomean(c, unit, logs[c]))
	}
	if len(all) > 0 {
		out = append(out, geomean("", unit, all))
	}
	return out
}

func geomean(codec, unit string, logs []float64) Geomean {
	s := benchmath.AssumeNormal.Summary(benchmath.NewSample(logs, &benchmath.DefaultThresholds), 0.95)
	return Geomean{Codec: codec, Unit: unit, N: len(logs), Ratio: math.Exp(s.Center), Lo: math.Exp(s.Lo), Hi: math.Exp(s.Hi)}
}
