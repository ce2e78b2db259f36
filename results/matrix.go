package results

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Matrix is the result of a study: every case of the study run against
// every codec, one MatrixCell each, and a verdict per codec. The fidelity
// matrix (probes), the hostile-input matrix (input classes) and any later
// study share it, and every renderer draws it from this data alone: the
// Study it carries says what its outcomes mean and how a verdict is
// reached, so a renderer links neither the study nor any codec.
type Matrix struct {
	Study Study `json:"study"`
	// Go and Serbench are the versions the matrix was made with.
	Go       string `json:"go,omitempty"`
	Serbench string `json:"serbench,omitempty"`
	// Settings says how the study ran, a phrase each: "per-input timeout
	// 10s", "-quick".
	Settings []string      `json:"settings,omitempty"`
	Elapsed  string        `json:"elapsed,omitempty"`
	Codecs   []MatrixCodec `json:"codecs"`
	Cases    []MatrixCase  `json:"cases"`
	// Cells are codec by codec, each in case order; a missing cell was
	// not run.
	Cells []MatrixCell `json:"cells"`
	// Verdicts holds a verdict per codec, in codec order: what Judge
	// derives from the cells by the study's rules.
	Verdicts []Verdict `json:"verdicts,omitempty"`
	// Rollup, if set, sums the rows up by a study's own rule in a small
	// table: the interop study's "portable to Python?" per Go codec,
	// from its rows of one codec with each peer.
	Rollup *Rollup `json:"rollup,omitempty"`

	index   map[[2]string]int // Cells by codec and case
	indexed int               // how many Cells index has seen
}

// A Study is what a study brings besides its cells, as data: the name of
// its files, the words a renderer puts around the matrix, the kinds of
// outcome a cell can have and the rules that turn a codec's row into a
// verdict.
type Study struct {
	// Name names the study's files: NAME.json, NAME.csv, and NAME/ for
	// its reproducers. It is also the id of its section in report.html.
	Name  string `json:"name"`
	Title string `json:"title"` // "Hostile input"
	// About says in a few sentences what the study does and how to read
	// a cell.
	About string `json:"about,omitempty"`
	// CaseWord is what one case is called: "probe", "class".
	CaseWord string `json:"case_word"`
	// Question is what the verdicts answer: "Safe to decode untrusted
	// input?"
	Question string `json:"question,omitempty"`
	// Outcomes lists the outcomes a cell can have, from the best to the
	// worst.
	Outcomes []OutcomeKind `json:"outcomes"`
	// Rules decide a codec's verdict: the first that applies gives it.
	Rules []Rule `json:"rules,omitempty"`
	// Facts name the study's own columns of a cell (MatrixCell.Facts),
	// in order.
	Facts []string `json:"facts,omitempty"`
	// ProfileTitle and Profile sum a codec's row up in words, beside its
	// verdict (Matrix.Profile): "Safe changes", "safe: add, remove; an
	// error: narrowing".
	ProfileTitle string   `json:"profile_title,omitempty"`
	Profile      []Clause `json:"profile,omitempty"`
	// FacetWord names what MatrixCodec.Facet is ("language"): a
	// renderer lets a reader keep the rows of one facet.
	FacetWord string `json:"facet_word,omitempty"`
}

// A Clause is one part of a codec's profile: Say, then the cases whose
// outcome is in When.
type Clause struct {
	Say  string    `json:"say"`
	When []Outcome `json:"when"`
}

// An Outcome is what one case gave with one codec. Its meaning is the
// study's (Study.Outcomes).
type Outcome string

// A Tone is how good an outcome is, read the same way in every study; it
// colours a cell.
type Tone string

// The tones, from the best to the worst; ToneNone is a case that was not
// tried: it does not apply, or the codec declares it unsupported.
const (
	ToneGood Tone = "good"
	ToneFair Tone = "fair" // kept, with a caveat: normalised, changed on bad input
	ToneWarn Tone = "warn" // refused, or recovered from
	ToneBad  Tone = "bad"  // wrong or fatal
	ToneNone Tone = "none"
)

// An OutcomeKind says what an outcome means.
type OutcomeKind struct {
	Name  Outcome `json:"name"`
	Code  string  `json:"code"`  // its mark in a matrix: "=", "PANIC"
	Label string  `json:"label"` // a few words: "equal after a normalisation"
	Tone  Tone    `json:"tone"`
	// Codes, if set, replaces Code for a cell whose Note is one of its
	// keys: a crash's kind ("stack overflow": "STACK").
	Codes map[string]string `json:"codes,omitempty"`
	// NoteNames says that a cell's Note names what happened better than
	// Label does (a crash's kind), where a verdict names the cell.
	NoteNames bool `json:"note_names,omitempty"`
	// ShowNote says that a cell's mark is its Note, where it has one: a
	// figure ("+1.2 MB"), for a study whose cells are measurements.
	ShowNote bool `json:"show_note,omitempty"`
}

// A Rule gives a codec its verdict when one of its cells has an outcome
// in When, or, with When empty, always: a last rule without When is the
// verdict of a row without any of the earlier outcomes. Untried makes the
// rule apply only when no case was tried (put it first).
type Rule struct {
	Verdict string    `json:"verdict"`
	When    []Outcome `json:"when,omitempty"`
	Untried bool      `json:"untried,omitempty"`
	// Why is the sentence that says why; "{cases}" in it becomes the
	// cases that matched When, "{tried}" the number of cases tried, and
	// "{count:OUTCOME}" how many inputs of the row's cells had that
	// outcome (MatrixCell.Counts; a cell without counts counts one).
	Why string `json:"why"`
	// Detail names each matching case with what happened (its Note or
	// Label) and its reproducer's size: "long-array (out of memory,
	// 6-byte input)".
	Detail bool `json:"detail,omitempty"`
	// Groups names a group of cases (MatrixCase.Group) whose tried cases
	// all match once, by the group's name: "rename" for both directions
	// of a schema change.
	Groups bool `json:"groups,omitempty"`
}

// A Verdict is a codec's answer to the study's question, and why.
type Verdict struct {
	Codec   string `json:"codec"`
	Verdict string `json:"verdict"`
	Why     string `json:"why"`
}

// A MatrixCodec is what a matrix records of a codec.
type MatrixCodec struct {
	Name    string `json:"name"`
	Label   string `json:"label,omitempty"`
	Family  string `json:"family,omitempty"`
	API     string `json:"api,omitempty"`
	Module  string `json:"module,omitempty"`
	Version string `json:"version,omitempty"`
	// Facet is the value of the row the study lets a reader filter its
	// rows by (Study.FacetWord): "python" for a column of a Python peer.
	Facet string `json:"facet,omitempty"`
}

// A Rollup is a small table summing a matrix's rows up: a row per group
// of rows, a column per facet, an answer in each cell.
type Rollup struct {
	Title   string      `json:"title"`   // "Portable to?"
	About   string      `json:"about"`   // how a cell is reached, in a sentence or two
	Columns []string    `json:"columns"` // "Python", "JavaScript (Node)"
	Rows    []RollupRow `json:"rows"`
}

// A RollupRow is a row of a Rollup: a name and a cell per column ("" for
// none).
type RollupRow struct {
	Name  string   `json:"name"`
	Cells []string `json:"cells"`
}

// A MatrixCase is what a matrix records of a case: a probe, an input
// class.
type MatrixCase struct {
	Name  string `json:"name"`
	Group string `json:"group,omitempty"`
	Doc   string `json:"doc,omitempty"`
}

// A MatrixCell is what one case gave with one codec.
type MatrixCell struct {
	Codec   string  `json:"codec"`
	Case    string  `json:"case"`
	Outcome Outcome `json:"outcome"`
	// Note qualifies the outcome in a word or two: the normalisation of
	// a fidelity cell ("UTC,1ms"), the kind of a crash ("stack overflow").
	Note string `json:"note,omitempty"`
	// Detail is the outcome at length: a diff, an error, a panic.
	Detail string `json:"detail,omitempty"`
	// Repro is the input that gives the outcome, when the study keeps one.
	Repro *Reproducer `json:"reproducer,omitempty"`
	// Tried is, for a case the codec declares unsupported, what running
	// it anyway gave: the evidence a declaration is checked against.
	Tried *MatrixCell `json:"tried,omitempty"`
	// Counts counts the outcomes of a cell that ran several inputs.
	Counts map[Outcome]int `json:"counts,omitempty"`
	// Facts are the study's own figures of the cell (Study.Facts).
	Facts map[string]string `json:"facts,omitempty"`
}

// A Reproducer is an input that gives a cell its outcome.
type Reproducer struct {
	Size int `json:"size"`
	// Hex is the hex dump of its start; File is where it is saved,
	// relative to the matrix's directory.
	Hex  string `json:"hex,omitempty"`
	File string `json:"file,omitempty"`
	// Data is the input itself; it is saved in File, not in the JSON.
	Data []byte `json:"-"`
}

// NewMatrix returns an empty matrix of the study's codecs by cases.
func NewMatrix(s Study, codecs []MatrixCodec, cases []MatrixCase) *Matrix {
	return &Matrix{Study: s, Codecs: codecs, Cases: cases}
}

// Add adds a cell, replacing any of the same codec and case. Its text is
// made printable (Printable).
func (m *Matrix) Add(c MatrixCell) {
	c.clean()
	m.reindex()
	k := [2]string{c.Codec, c.Case}
	if i, ok := m.index[k]; ok {
		m.Cells[i] = c
		return
	}
	m.index[k] = len(m.Cells)
	m.Cells = append(m.Cells, c)
	m.indexed = len(m.Cells)
}

// Cell returns the cell of codec and case, or nil.
func (m *Matrix) Cell(codec, kase string) *MatrixCell {
	m.reindex()
	if i, ok := m.index[[2]string{codec, kase}]; ok {
		return &m.Cells[i]
	}
	return nil
}

// Row returns codec's cells in case order; a missing cell is nil.
func (m *Matrix) Row(codec string) []*MatrixCell {
	row := make([]*MatrixCell, len(m.Cases))
	for i, c := range m.Cases {
		row[i] = m.Cell(codec, c.Name)
	}
	return row
}

// reindex indexes the cells when some were appended to Cells directly
// since the index was made. A cell's codec and case are not changed in
// place.
func (m *Matrix) reindex() {
	if m.index != nil && m.indexed == len(m.Cells) {
		return
	}
	m.index = map[[2]string]int{}
	for i, c := range m.Cells {
		m.index[[2]string{c.Codec, c.Case}] = i
	}
	m.indexed = len(m.Cells)
}

// Validate reports what is wrong with the study as data, if anything: a
// name that cannot name its files, an outcome without a name or a code or
// listed twice, a tone that is not one of the five, a rule that names an
// outcome the study does not list, or no rule that always applies last.
func (s *Study) Validate() error {
	var errs []string
	if s.Name == "" || strings.ContainsAny(s.Name, `/\.`) || s.Name != strings.TrimSpace(s.Name) {
		errs = append(errs, fmt.Sprintf("name %q cannot name files", s.Name))
	}
	seen := map[Outcome]bool{}
	for _, k := range s.Outcomes {
		switch {
		case k.Name == "" || k.Code == "":
			errs = append(errs, fmt.Sprintf("outcome %q has no name or no code", k.Name))
		case seen[k.Name]:
			errs = append(errs, fmt.Sprintf("outcome %q is listed twice", k.Name))
		}
		seen[k.Name] = true
		if !slices.Contains([]Tone{ToneGood, ToneFair, ToneWarn, ToneBad, ToneNone}, k.Tone) {
			errs = append(errs, fmt.Sprintf("outcome %q has tone %q; want good, fair, warn, bad or none", k.Name, k.Tone))
		}
	}
	if len(s.Outcomes) == 0 {
		errs = append(errs, "no outcomes")
	}
	for _, r := range s.Rules {
		for _, o := range r.When {
			if !seen[o] {
				errs = append(errs, fmt.Sprintf("rule %q names outcome %q, which the study does not list", r.Verdict, o))
			}
		}
	}
	if n := len(s.Rules); n == 0 || len(s.Rules[n-1].When) > 0 || s.Rules[n-1].Untried {
		errs = append(errs, "no last rule that always applies")
	}
	if len(errs) > 0 {
		return fmt.Errorf("study %q: %s", s.Name, strings.Join(errs, "; "))
	}
	return nil
}

// Kind returns what outcome o means in the study; an outcome the study
// does not list is its own label, coded "?".
func (s *Study) Kind(o Outcome) OutcomeKind {
	for _, k := range s.Outcomes {
		if k.Name == o {
			return k
		}
	}
	return OutcomeKind{Name: o, Code: "?", Label: string(o), Tone: ToneNone}
}

// Severity orders the study's outcomes: a higher severity is worse; an
// outcome the study does not list is -1.
func (s *Study) Severity(o Outcome) int {
	return slices.IndexFunc(s.Outcomes, func(k OutcomeKind) bool { return k.Name == o })
}

// Code returns the cell's mark in a matrix: its outcome's Code, the one
// its Note selects, or its Note where the outcome shows notes.
func (s *Study) Code(c *MatrixCell) string {
	k := s.Kind(c.Outcome)
	if code, ok := k.Codes[c.Note]; ok {
		return code
	}
	if k.ShowNote && c.Note != "" {
		return c.Note
	}
	return k.Code
}

// Text says in words what the cell holds: "equal after a normalisation
// (UTC,1ms)", "refused at encode: json: unsupported value: NaN".
func (s *Study) Text(c *MatrixCell) string {
	t := s.Kind(c.Outcome).Label
	if c.Note != "" {
		t += " (" + c.Note + ")"
	}
	if c.Detail != "" {
		t += ": " + c.Detail
	}
	return t
}

// What names what happened in a cell in a word or two: its Note where
// the outcome says the note names it (a crash's kind), else its
// outcome's label.
func (s *Study) What(c *MatrixCell) string {
	k := s.Kind(c.Outcome)
	if k.NoteNames && c.Note != "" || k.Label == "" {
		return c.Note
	}
	return k.Label
}

// Evidence returns what the case showed of the codec: the cell, or what
// running it anyway gave when the codec declares it unsupported.
func (c MatrixCell) Evidence() MatrixCell {
	if c.Tried != nil {
		return *c.Tried
	}
	return c
}

// Profile returns codec's row summed up by the study's Profile clauses:
// each clause that has cases, "say: case, case", joined by "; ". A group
// of cases (MatrixCase.Group) whose tried cells all fall in one clause is
// named once, by the group; empty when the study has no profile.
func (m *Matrix) Profile(codec string) string {
	row := m.Row(codec)
	var parts []string
	for _, cl := range m.Study.Profile {
		if items := m.grouped(row, cl.When, func(c *MatrixCell) string { return c.Case }); len(items) > 0 {
			parts = append(parts, cl.Say+": "+strings.Join(items, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// grouped names the tried cells of row whose outcome is in when, in case
// order: a group of cases (MatrixCase.Group) whose tried cells all match
// by the group's name, once; any other by name(cell).
func (m *Matrix) grouped(row []*MatrixCell, when []Outcome, name func(*MatrixCell) string) []string {
	tried := func(c *MatrixCell) bool { return c != nil && m.Study.Kind(c.Outcome).Tone != ToneNone }
	var items []string
	for i := 0; i < len(row); {
		j := i + 1
		for j < len(row) && m.Cases[i].Group != "" && m.Cases[j].Group == m.Cases[i].Group {
			j++
		}
		all, some := true, false
		for _, c := range row[i:j] {
			if tried(c) {
				in := slices.Contains(when, c.Outcome)
				all, some = all && in, some || in
			}
		}
		switch {
		case some && all && j-i > 1:
			items = append(items, m.Cases[i].Group)
		case some:
			for _, c := range row[i:j] {
				if tried(c) && slices.Contains(when, c.Outcome) {
					items = append(items, name(c))
				}
			}
		}
		i = j
	}
	return items
}

// maxItems is how many cases a verdict names before "and N more".
const maxItems = 8

// Judge returns codec's verdict by the study's rules. A cell of an
// outcome of ToneNone was not tried.
func (m *Matrix) Judge(codec string) Verdict {
	tried := 0
	row := m.Row(codec)
	for _, c := range row {
		if c != nil && m.Study.Kind(c.Outcome).Tone != ToneNone {
			tried++
		}
	}
	for _, r := range m.Study.Rules {
		if r.Untried && tried > 0 {
			continue
		}
		var items []string
		if r.Groups {
			items = m.grouped(row, r.When, func(c *MatrixCell) string { return m.item(c, r.Detail) })
		} else {
			for _, c := range row {
				if c != nil && slices.Contains(r.When, c.Outcome) {
					items = append(items, m.item(c, r.Detail))
				}
			}
		}
		if len(r.When) > 0 && len(items) == 0 {
			continue
		}
		if len(items) > maxItems {
			items = append(items[:maxItems], fmt.Sprintf("and %d more", len(items)-maxItems))
		}
		sep := ", "
		if r.Detail {
			sep = "; "
		}
		subs := []string{"{cases}", strings.Join(items, sep), "{tried}", strconv.Itoa(tried)}
		for _, k := range m.Study.Outcomes {
			if ph := "{count:" + string(k.Name) + "}"; strings.Contains(r.Why, ph) {
				subs = append(subs, ph, strconv.Itoa(countOf(row, k.Name)))
			}
		}
		why := strings.NewReplacer(subs...).Replace(r.Why)
		return Verdict{Codec: codec, Verdict: r.Verdict, Why: why}
	}
	return Verdict{Codec: codec, Verdict: "?", Why: "No rule of the study applies."}
}

// countOf returns how many inputs of row's cells had outcome o: a cell's
// Counts of it, or one for a cell of that outcome without counts.
func countOf(row []*MatrixCell, o Outcome) int {
	n := 0
	for _, c := range row {
		switch {
		case c == nil:
		case c.Counts != nil:
			n += c.Counts[o]
		case c.Outcome == o:
			n++
		}
	}
	return n
}

// item names a cell in a verdict: its case, and with detail what
// happened and the reproducer's size.
func (m *Matrix) item(c *MatrixCell, detail bool) string {
	if !detail {
		return c.Case
	}
	what := m.Study.What(c)
	if c.Repro != nil && c.Repro.Size > 0 {
		what += fmt.Sprintf(", %d-byte input", c.Repro.Size)
	}
	return fmt.Sprintf("%s (%s)", c.Case, what)
}

// Verdict returns codec's verdict: the one recorded, or Judge's.
func (m *Matrix) Verdict(codec string) Verdict {
	for _, v := range m.Verdicts {
		if v.Codec == codec {
			return v
		}
	}
	return m.Judge(codec)
}

// JudgeAll records every codec's verdict (Judge) in Verdicts.
func (m *Matrix) JudgeAll() {
	m.Verdicts = m.Verdicts[:0]
	for _, c := range m.Codecs {
		m.Verdicts = append(m.Verdicts, m.Judge(c.Name))
	}
}

// FileName is the name of the matrix's JSON file: the study's name and
// ".json".
func (m *Matrix) FileName() string { return m.Study.Name + ".json" }

// WriteJSON writes m as indented JSON (what NAME.json holds), its
// verdicts judged.
func (m *Matrix) WriteJSON(w io.Writer) error {
	if len(m.Verdicts) != len(m.Codecs) {
		m.JudgeAll()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(m)
}

// ReadMatrix reads a matrix written by WriteJSON; name names the input
// in errors. Its text is made printable, and a missing verdict judged.
func ReadMatrix(r io.Reader, name string) (*Matrix, error) {
	var m Matrix
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: not a serbench study matrix: %w", name, err)
	}
	switch err := m.Study.Validate(); {
	case err != nil:
		return nil, fmt.Errorf("%s: not a serbench study matrix: %v; write it again with the study's command (serbench fidelity, serbench hostile)", name, err)
	case len(m.Codecs) == 0 || len(m.Cases) == 0:
		return nil, fmt.Errorf("%s: the %s matrix has no codecs or no cases; write it again with serbench %s", name, m.Study.Name, m.Study.Name)
	}
	for i := range m.Cells {
		m.Cells[i].clean()
	}
	if len(m.Verdicts) != len(m.Codecs) {
		m.JudgeAll()
	}
	return &m, nil
}

// clean makes the cell's text printable.
func (c *MatrixCell) clean() {
	c.Note, c.Detail = Printable(c.Note), Printable(c.Detail)
	if c.Tried != nil {
		c.Tried.clean()
	}
}

// Printable returns s with what a terminal or a text tool would not show
// as text escaped, Go-style: a control character but newline and tab
// (NUL becomes \x00), and a byte that is not UTF-8. A decoder's message
// may quote the bad input it was given; files and the terminal get text.
func Printable(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t' || !unicode.IsControl(r) && r != '\u2028' && r != '\u2029':
			b.WriteString(s[i : i+n])
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// Holds reports whether m answers for codec: a row of it, or a row of its
// rollup (a study whose rows are a codec's several, one per peer).
func (m *Matrix) Holds(codec string) bool {
	return slices.ContainsFunc(m.Codecs, func(c MatrixCodec) bool { return c.Name == codec }) ||
		m.Rollup != nil && slices.ContainsFunc(m.Rollup.Rows, func(r RollupRow) bool { return r.Name == codec })
}
