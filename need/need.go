package need

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/internal/suggest"
	"github.com/serbench/serbench/results"
)

// A Need is one thing a user needs of a format, named in the user's
// words, and the evidence that decides it: a study's matrix (Study, with
// the verdicts or the cases' tones it accepts) or the codec's declared
// facts (Declared).
type Need struct {
	Name string
	// Says is what the need means, in a phrase: "decodes bytes from
	// untrusted sources".
	Says string
	// Study names the matrix that decides the need (results.Study.Name);
	// empty for a need the codec's facts decide.
	Study string
	// Verdicts are the verdicts of Study that meet the need, when Cases
	// is nil.
	Verdicts []string
	// Rollup, if set, names the column of Study's rollup
	// (results.Matrix.Rollup) whose answer for the codec decides the
	// need: met when it starts with "yes" ("yes, with useBigInt64").
	Rollup string
	// Cases, if set, picks the cases of Study the need looks at, given
	// the need's arguments; each must have an outcome of a good or fair
	// tone for the codec to meet the need.
	Cases func(args []string, c results.MatrixCase) bool
	// Args lists the arguments the need takes ("evolve=add+rename"), and
	// Default those it takes when given none.
	Args, Default []string
	// Declared decides the need from the codec's facts: whether it meets
	// it, and if not, why.
	Declared func(f Facts) (bool, string)
	// Fallback, if set, decides the need from the codec's facts when
	// Study has not run for the codec.
	Fallback func(f Facts) (bool, string)
	// FactCase and Fact, if set, decide the need from the study's cell of
	// FactCase for the codec: Fact reads the cell's figures
	// (MatrixCell.Facts) and says whether the codec meets the need, and
	// if not, why.
	FactCase string
	Fact     func(facts map[string]string) (bool, string)
	// Run is the command that runs Study for some codecs, named in an
	// unknown judgement: "serbench hostile".
	Run string
}

// Facts are what a codec declares, and what a run saw of its API.
type Facts struct {
	Name, Family string
	API          codec.APIKind
	Losses       int // declared losses (codec.Info.Losses)
	// Outside says, by study name, why the codec takes no part in a
	// study (study.Study's Takes): a need that study decides is failed
	// with that reason, not unknown.
	Outside map[string]string
	// JIT and Generator are what adopting the codec asks, as it declares
	// (codec.Info.Adopt).
	JIT, Generator string
	// Streams and InPlace say whether the codec has a streaming API
	// (codec.Streamer) and an in-place reader (codec.Getter); nil when
	// unknown.
	Streams, InPlace *bool
}

// FactsOf returns the facts codec info declares.
func FactsOf(info codec.Info) Facts {
	return Facts{Name: info.Name, Family: info.Family, API: info.API, Losses: len(info.Losses),
		JIT: info.Adopt.JIT, Generator: info.Adopt.Generator}
}

func (f Facts) format() Format { fm, _ := FormatOf(f.Name, f.Family); return fm }

// evolveCases names the schema changes an "evolve" need takes, each the
// evolution study's case group it stands for.
var evolveCases = map[string]string{
	"add":     "add-optional",
	"remove":  "remove-optional",
	"rename":  "rename",
	"reorder": "reorder",
	"default": "add-default",
	"nested":  "add-nested",
}

// Needs lists every need a user can name, in the order help shows them.
var Needs = []*Need{
	{Name: "untrusted", Says: "decodes bytes from untrusted sources without crashing, hanging or blowing up its memory",
		Study: "hostile", Verdicts: []string{"yes"}, Run: "serbench hostile"},
	{Name: "evolve", Says: "reads data written with an older or newer schema as the rules say (the changes named: evolve=add+remove+rename+reorder)",
		Study: "evolution", Args: sortedKeys(evolveCases), Default: []string{"add", "remove"}, Run: "serbench evolve",
		Cases: func(args []string, c results.MatrixCase) bool {
			return slices.ContainsFunc(args, func(a string) bool { return evolveCases[a] == c.Group })
		}},
	{Name: "exact", Says: "returns every value exactly, without a declared loss",
		Study: "fidelity", Verdicts: []string{"exact"}, Run: "serbench fidelity",
		Fallback: func(f Facts) (bool, string) {
			return f.Losses == 0, fmt.Sprintf("it declares %d loss(es) (serbench list codecs)", f.Losses)
		}},
	{Name: "python", Says: "what it writes reads right in Python, and what Python writes reads right in Go, with some peer's defaults or careful settings",
		Study: "interop", Rollup: "Python", Run: "serbench interop"},
	{Name: "javascript", Says: "what it writes reads right in JavaScript (Node), and the reverse, with some peer's defaults or careful settings",
		Study: "interop", Rollup: "JavaScript (Node)", Run: "serbench interop"},
	{Name: "java", Says: "what it writes reads right in Java, and the reverse, with some peer's defaults or careful settings",
		Study: "interop", Rollup: "Java", Run: "serbench interop"},
	{Name: "no-unsafe", Says: "neither its packages nor its dependencies import unsafe, hold assembly or generate code at run time",
		Study: "cost", FactCase: "unsafe", Run: "serbench cost -costs unsafe",
		Fact: func(f map[string]string) (bool, string) {
			if f["unsafe"] == "0" && f["asm"] == "0" && f["jit"] == "0" {
				return true, ""
			}
			return false, fmt.Sprintf("cost: %s of its packages import unsafe, %s hold assembly, %s generate code at run time", f["unsafe"], f["asm"], f["jit"])
		}},
	{Name: "small-binary", Says: fmt.Sprintf("adds at most %d KiB to a stripped binary", smallBinary>>10),
		Study: "cost", FactCase: "binary", Run: "serbench cost -costs binary",
		Fact: func(f map[string]string) (bool, string) {
			n, err := strconv.ParseInt(f["bytes_added"], 10, 64)
			if err != nil {
				return false, "cost: no figure of the bytes it adds"
			}
			return n <= smallBinary, fmt.Sprintf("cost: it adds %d KiB to a stripped binary", n>>10)
		}},
	{Name: "no-jit", Says: "generates no machine code at run time",
		Declared: func(f Facts) (bool, string) { return f.JIT == "", "it generates machine code at run time: " + f.JIT }},
	{Name: "no-compiler", Says: "needs no schema compiler outside Go's toolchain (" + strings.Join(compilers, ", ") + ")",
		Declared: func(f Facts) (bool, string) {
			for _, c := range compilers {
				if slices.Contains(strings.FieldsFunc(f.Generator, func(r rune) bool { return r == ',' || r == ' ' || r == ':' }), c) {
					return false, "its generated code comes from " + c + " (" + f.Generator + ")"
				}
			}
			return true, ""
		}},
	{Name: "no-codegen", Says: "needs no generated code",
		Declared: func(f Facts) (bool, string) { return f.API != codec.Codegen, "it works through generated code" }},
	{Name: "schema", Says: "writes by a schema both ends share (fields by number or position)",
		Declared: func(f Facts) (bool, string) {
			return !f.format().Names, "its encodings carry field names: no schema binds them"
		}},
	{Name: "schemaless", Says: "carries field names in the data, so a reader needs no shared schema",
		Declared: func(f Facts) (bool, string) {
			return f.format().Names, "its encodings carry no field names: a reader needs the writer's schema"
		}},
	{Name: "human-readable", Says: "writes text a person can read and edit",
		Declared: func(f Facts) (bool, string) { return f.format().Text, "its encoding is binary" }},
	{Name: "streams", Says: "writes and reads a stream of messages through an io.Writer and io.Reader",
		Declared: func(f Facts) (bool, string) {
			return known(f.Streams), "its library has no streaming API serbench drives"
		}},
	{Name: "read-in-place", Says: "reads fields of an encoding without decoding the rest",
		Declared: func(f Facts) (bool, string) {
			return known(f.InPlace), "it reads no field in place: a get decodes the whole message"
		}},
}

// smallBinary is the most a codec may add to a stripped binary and meet
// small-binary.
const smallBinary = 1 << 20

// compilers are the schema compilers a generator may need that Go's
// toolchain cannot install (go tool installs the others).
var compilers = []string{"protoc", "flatc", "capnp", "thrift"}

func known(b *bool) bool { return b != nil && *b }

func sortedKeys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Lookup returns the need named name.
func Lookup(name string) *Need {
	for _, n := range Needs {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// Names returns the names of every need.
func Names() []string {
	var out []string
	for _, n := range Needs {
		out = append(out, n.Name)
	}
	return out
}

// A Want is a need as the user named it, with its arguments.
type Want struct {
	Need *Need
	Args []string
}

// String writes w as Parse reads it.
func (w Want) String() string {
	if len(w.Args) == 0 || slices.Equal(w.Args, w.Need.Default) {
		return w.Need.Name
	}
	return w.Need.Name + "=" + strings.Join(w.Args, "+")
}

// Parse reads a list of needs, "untrusted,evolve=add+rename,python": an
// unknown need or argument is an error naming the known ones.
func Parse(s string) ([]Want, error) {
	var out []Want
	var names []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("need: empty name in %q; known: %s", s, strings.Join(Names(), ", "))
		}
		name, arg, hasArg := strings.Cut(part, "=")
		names = append(names, name)
		n := Lookup(name)
		if n == nil {
			continue // reported below, with every unknown name
		}
		w := Want{Need: n, Args: n.Default}
		if hasArg {
			if len(n.Args) == 0 {
				return nil, fmt.Errorf("need: %s takes no argument (%q)", name, part)
			}
			w.Args = strings.Split(arg, "+")
			if err := suggest.Check(name+" change", w.Args, n.Args, nil, ""); err != nil {
				return nil, fmt.Errorf("need: %w", err)
			}
		}
		if slices.ContainsFunc(out, func(o Want) bool { return o.Need == n }) {
			return nil, fmt.Errorf("need: %s named twice", name)
		}
		out = append(out, w)
	}
	if err := suggest.Check("need", names, Names(), nil, "serbench list needs"); err != nil {
		return nil, fmt.Errorf("need: %w", err)
	}
	return out, nil
}

// Studies returns the studies wants need, each once, in order.
func Studies(wants []Want) []string {
	var out []string
	for _, w := range wants {
		if s := w.Need.Study; s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
