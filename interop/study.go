package interop

import "github.com/serbench/serbench/results"

// The outcomes of a cell, from the best to the worst.
const (
	Skipped     results.Outcome = "skipped"
	NA          results.Outcome = "n/a"
	SameBytes   results.Outcome = "same-bytes"
	SameValue   results.Outcome = "same-value"
	Loss        results.Outcome = "loss"
	RefusedPeer results.Outcome = "refused-peer"
	RefusedGo   results.Outcome = "refused-go"
	Changed     results.Outcome = "changed"
	Crash       results.Outcome = "crash"
)

// The directions of a case: each probe crosses three ways.
const (
	// PeerReads: Go writes the value, the peer reads it and its reading
	// is compared with the value.
	PeerReads = "peer-reads"
	// RoundTrip: the peer writes back what it read, Go reads it.
	RoundTrip = "round-trip"
	// GoReads: the peer writes the value from the case's neutral form,
	// Go reads it.
	GoReads = "go-reads"
)

// Directions lists the directions in case order.
var Directions = []string{PeerReads, RoundTrip, GoReads}

// FactVersion is the fact of a cell naming the peer library's version.
const FactVersion = "peer_version"

// Study is the interop study as data: its outcomes and the rule of its
// verdict per column (a Go codec with one peer in one configuration).
var Study = results.Study{
	Name:  "interop",
	Title: "Cross-language interop",
	About: "What crosses between a Go codec and the most used libraries of its format in other languages (serbench interop): " +
		"each probe three ways, the peer reading what Go wrote (peer-reads), Go reading what the peer wrote back of it (round-trip), " +
		"and Go reading what the peer wrote of the value itself (go-reads). A column is a Go codec with one peer in one configuration " +
		"(\"+careful\": the settings a careful user chooses); a peer is a process per column, never per cell. " +
		"A loss is a difference of one of serbench's loss kinds (UTC, 1µs, nil≡empty, any-types), named in the cell.",
	CaseWord: "case",
	Question: "Crosses exactly?",
	Outcomes: []results.OutcomeKind{
		{Name: Skipped, Code: "s", Label: "not run: the peer is not installed", Tone: results.ToneNone},
		{Name: NA, Code: "-", Label: "cannot cross: the format or Go's codec cannot hold the value", Tone: results.ToneNone},
		{Name: SameBytes, Code: "=", Label: "the same bytes as Go's", Tone: results.ToneGood},
		{Name: SameValue, Code: ".", Label: "the same value", Tone: results.ToneGood},
		{Name: Loss, Code: "l", Label: "equal but for a loss of serbench's kinds", Tone: results.ToneFair},
		{Name: RefusedPeer, Code: "P", Label: "refused by the peer", Tone: results.ToneWarn},
		{Name: RefusedGo, Code: "G", Label: "refused by Go", Tone: results.ToneWarn},
		{Name: Changed, Code: "c", Label: "a changed value", Tone: results.ToneBad},
		{Name: Crash, Code: "X", Label: "a crash", Tone: results.ToneBad, NoteNames: true},
	},
	Rules: []results.Rule{
		{Verdict: "not run", Untried: true, Why: "No case crossed: the peer is not installed, or the codec holds none of the probes."},
		{Verdict: "no", When: []results.Outcome{Crash, Changed}, Groups: true,
			Why: "Values change or crash crossing: {cases}."},
		{Verdict: "refuses", When: []results.Outcome{RefusedPeer, RefusedGo}, Groups: true,
			Why: "Nothing tried changes silently, but one side refuses {cases}."},
		{Verdict: "lossy", When: []results.Outcome{Loss}, Groups: true,
			Why: "Every case tried crosses, some with a loss of serbench's kinds: {cases}."},
		{Verdict: "yes", Why: "Every case tried ({tried}) crosses with the same value."},
	},
	Facts:        []string{FactVersion},
	FacetWord:    "language",
	ProfileTitle: "What crosses",
	Profile: []results.Clause{
		{Say: "exact", When: []results.Outcome{SameBytes, SameValue}},
		{Say: "with a loss", When: []results.Outcome{Loss}},
		{Say: "refused", When: []results.Outcome{RefusedPeer, RefusedGo}},
		{Say: "changed", When: []results.Outcome{Changed}},
		{Say: "crash", When: []results.Outcome{Crash}},
	},
}
