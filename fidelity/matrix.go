package fidelity

import (
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/buildinfo"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"runtime"
)

// A Matrix is every probe through every codec, in the results package's
// matrix model: what fidelity.json holds. A Cell is one probe through one
// codec; its Note names the normalisation of a Normalised cell ("UTC",
// "1s", "nil≡empty", several joined by ","), its Detail holds the diff
// (-want +got) of a Changed cell, the error of a refused or crashed one,
// the reason of an Unsupported one, and its Tried, for a cell Unsupported
// by the codec's Info, what running the probe anyway gives: the evidence
// Derive checks the declaration against.
type (
	Matrix  = results.Matrix
	Cell    = results.MatrixCell
	Outcome = results.Outcome
)

// The outcomes, from best to worst.
const (
	Exact         Outcome = "exact"          // equal as verify.Compare sees it, without a loss
	Normalised    Outcome = "normalised"     // equal after the normalisation named in Cell.Note
	Changed       Outcome = "changed"        // decoded, but different: Cell.Detail holds the diff
	RefusedEncode Outcome = "refused-encode" // the codec refused to encode it: Cell.Detail holds the error
	RefusedDecode Outcome = "refused-decode" // the codec encoded it and refused to decode it
	Unsupported   Outcome = "unsupported"    // declared: by the codec's Info, its Prepare, or a missing optional interface
	Crashed       Outcome = "crashed"        // the codec panicked, crashed its process or hung
	// CheckFailed: comparing the decoded value failed (verify.CheckError),
	// which says nothing about the codec: Cell.Detail holds why.
	CheckFailed Outcome = "check-failed"
)

// Study is the fidelity study as data: its outcomes and the rule of a
// codec's verdict, "does what goes in come back?". A value changed
// without an error decides it before a crash: a crash is seen, a silent
// change is not.
var Study = results.Study{
	Name:  "fidelity",
	Title: "Fidelity: what survives the round trip",
	About: "Each probe, a small typed value, through each codec (serbench fidelity), each codec in child processes. " +
		"A cell is exact, equal after a named normalisation, changed, refused at encode or decode, unsupported as declared, or crashed.",
	CaseWord: "probe",
	Question: "Does what goes in come back?",
	Outcomes: []results.OutcomeKind{
		{Name: Exact, Code: "=", Label: "exact", Tone: results.ToneGood},
		{Name: Normalised, Code: "≈", Label: "equal after a normalisation", Tone: results.ToneFair, NoteNames: true},
		{Name: Changed, Code: "≠", Label: "changed", Tone: results.ToneBad},
		{Name: RefusedEncode, Code: "E", Label: "refused at encode", Tone: results.ToneWarn},
		{Name: RefusedDecode, Code: "D", Label: "refused at decode", Tone: results.ToneWarn},
		{Name: Unsupported, Code: "·", Label: "unsupported", Tone: results.ToneNone},
		{Name: Crashed, Code: "!", Label: "crashed or hung", Tone: results.ToneBad},
		// The check failing says nothing of the codec: the cell counts as
		// not tried.
		{Name: CheckFailed, Code: "?", Label: "the check itself failed", Tone: results.ToneNone},
	},
	Rules: []results.Rule{
		{Verdict: "not probed", Untried: true, Why: "No probe applied: no schema or code for the probes' types."},
		{Verdict: "changes values", When: []Outcome{Changed}, Why: "It returns another value without an error on {cases}."},
		{Verdict: "crashes", When: []Outcome{Crashed}, Why: "A probe crashes, hangs or panics it: {cases}."},
		{Verdict: "lossy", When: []Outcome{Normalised}, Detail: true, Why: "Values come back equal only after a normalisation: {cases}."},
		{Verdict: "exact", Why: "Every probe tried ({tried}) comes back exact, or is refused with an error."},
	},
}

// Outcomes lists the outcomes in order.
var Outcomes = []Outcome{Exact, Normalised, Changed, RefusedEncode, RefusedDecode, Unsupported, Crashed, CheckFailed}

// NewMatrix returns an empty matrix of codecs by probes.
func NewMatrix(codecs []codec.Info, probes []Probe) *Matrix {
	var cs []results.MatrixCodec
	for _, c := range codecs {
		cs = append(cs, study.Header(c))
	}
	var ps []results.MatrixCase
	for _, p := range probes {
		ps = append(ps, results.MatrixCase{Name: p.Name, Group: p.Group, Doc: p.Doc})
	}
	m := results.NewMatrix(Study, cs, ps)
	m.Go, m.Serbench = runtime.Version(), buildinfo.Main()
	return m
}
