package cost

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
)

// The outcomes of a cost cell, from the lightest to the heaviest; each
// cell's mark is its figure (ShowNote). A case's thresholds say which
// figure is which (Grade).
const (
	Unmeasured   results.Outcome = "unmeasured"
	Light        results.Outcome = "light"
	Moderate     results.Outcome = "moderate"
	Heavy        results.Outcome = "heavy"
	VeryHeavy    results.Outcome = "very-heavy"
	Contradicted results.Outcome = "contradicted"
)

// The cases: what adopting a codec costs, one column each.
const (
	CaseBinary        = "binary"
	CaseBuild         = "build"
	CaseDeps          = "deps"
	CaseUnsafe        = "unsafe"
	CaseCode          = "code"
	CaseDeterministic = "deterministic"
	CaseUpkeep        = "upkeep"
)

// The facts of a cost matrix's cells: its CSV columns, one figure each.
const (
	FactBytesAdded    = "bytes_added"
	FactBinaryBytes   = "binary_bytes"
	FactDataset       = "dataset"
	FactBuildCPU      = "build_cpu_s"
	FactBuildLo       = "build_cpu_lo"
	FactBuildHi       = "build_cpu_hi"
	FactBuildAdded    = "build_added_cpu_s"
	FactModules       = "modules"
	FactPackages      = "packages"
	FactStd           = "std_packages"
	FactLicences      = "licences"
	FactCgo           = "cgo"
	FactUnsafe        = "unsafe"
	FactAsm           = "asm"
	FactJIT           = "jit"
	FactGenerated     = "generated_lines"
	FactSchema        = "schema_lines"
	FactAdapter       = "adapter_lines"
	FactGenerator     = "generator"
	FactDeterministic = "deterministic"
	FactCanonical     = "canonical"
	FactLatest        = "latest"
	FactLatestDate    = "latest_date"
	FactPinned        = "pinned"
	FactPinnedAge     = "pinned_age_days"
	FactNewerMajor    = "newer_major"
)

// Definition is the cost matrix as data: its outcomes and verdicts.
var Definition = results.Study{
	Name: "cost", Title: "Cost to adopt", CaseWord: "cost",
	About: "What a codec costs a project besides run time: the bytes it adds to a stripped binary (a main that encodes and decodes one value " +
		"through the codec, less the same main without it), the CPU-seconds it adds to a cold build (median of several, with a build cache " +
		"holding the standard library and the baseline only), the modules and packages it brings (with their licences), the unsafe, assembly, " +
		"cgo or JIT code among them, the generated code and the tools to regenerate it, whether its output is the same bytes every time, and " +
		"when its module last released. Each cell shows its figure.",
	Question: "What does adopting it cost?",
	Outcomes: []results.OutcomeKind{
		{Name: Unmeasured, Code: "?", Label: "not measured", Tone: results.ToneNone, ShowNote: true},
		{Name: Light, Code: ".", Label: "light", Tone: results.ToneGood, ShowNote: true},
		{Name: Moderate, Code: "~", Label: "moderate", Tone: results.ToneFair, ShowNote: true},
		{Name: Heavy, Code: "!", Label: "heavy", Tone: results.ToneWarn, ShowNote: true},
		{Name: VeryHeavy, Code: "!!", Label: "very heavy", Tone: results.ToneBad, ShowNote: true},
		{Name: Contradicted, Code: "X", Label: "contradicts its declaration", Tone: results.ToneBad},
	},
	Rules: []results.Rule{
		{Verdict: "unmeasured", Untried: true, Why: "Nothing could be measured."},
		{Verdict: "declaration wrong", When: []results.Outcome{Contradicted}, Detail: true, Why: "The measurement contradicts what the codec declares: {cases}."},
		{Verdict: "very heavy", When: []results.Outcome{VeryHeavy}, Detail: true, Why: "Very heavy in {cases}."},
		{Verdict: "heavy", When: []results.Outcome{Heavy}, Detail: true, Why: "Heavy in {cases}."},
		{Verdict: "moderate", When: []results.Outcome{Moderate}, Why: "Moderate in {cases}; light in the rest."},
		{Verdict: "light", Why: "Light in all {tried}."},
	},
	Facts: []string{FactBytesAdded, FactBinaryBytes, FactDataset, FactBuildCPU, FactBuildLo, FactBuildHi, FactBuildAdded,
		FactModules, FactPackages, FactStd, FactLicences, FactCgo, FactUnsafe, FactAsm, FactJIT,
		FactGenerated, FactSchema, FactAdapter, FactGenerator, FactDeterministic, FactCanonical,
		FactLatest, FactLatestDate, FactPinned, FactPinnedAge, FactNewerMajor},
}

// Cases are the study's cases, with what each measures.
var Cases = []results.MatrixCase{
	{Name: CaseBinary, Doc: "bytes a stripped, trimmed main gains with the codec (-trimpath -ldflags='-s -w'), exact: light to 0.5 MB, moderate to 2 MB, heavy to 8 MB"},
	{Name: CaseBuild, Doc: "CPU-seconds (user+sys) a cold build of that main adds, median of several builds with its 95% interval (of this run's builds: compare codecs within one run): light to 2 s, moderate to 8 s, heavy to 30 s"},
	{Name: CaseDeps, Doc: "modules and packages added outside the standard library, with their licences: light to 1 module, moderate to 3; cgo is very heavy"},
	{Name: CaseUnsafe, Doc: "added packages importing unsafe, holding assembly, or generating machine code at run time (JIT): unsafe moderate, assembly heavy, JIT or cgo very heavy"},
	{Name: CaseCode, Doc: "generated lines, schema lines, hand-written adapter lines, and the generator to install: go-run tools moderate, a schema compiler heavy"},
	{Name: CaseDeterministic, Doc: "the same value encoded twice, in a fresh process, and with its maps filled in another order: the same bytes (light) or not (heavy); a canonical mode named"},
	{Name: CaseUpkeep, Doc: "the module's latest release from the module proxy, the pinned version's age, a newer major version: light within a year, moderate within two"},
}

// externalTools are the generators a user installs outside Go (a schema
// compiler), as CountCode names them.
var externalTools = []string{"protoc", "flatc", "capnp", "thrift"}

// cell returns a cell of outcome o, its mark note and its facts, given
// as name, value pairs (an empty value left out).
func cell(kase string, o results.Outcome, note string, facts ...string) results.MatrixCell {
	c := results.MatrixCell{Case: kase, Outcome: o, Note: note}
	for i := 0; i+1 < len(facts); i += 2 {
		if facts[i+1] != "" {
			if c.Facts == nil {
				c.Facts = map[string]string{}
			}
			c.Facts[facts[i]] = facts[i+1]
		}
	}
	return c
}

// binaryCell is the binary case's cell.
func binaryCell(out binaryOut) results.MatrixCell {
	added := out.Binary - out.Baseline
	c := cell(CaseBinary, Grade(float64(added), 0.5e6, 2e6, 8e6), "+"+mb(added),
		FactBytesAdded, strconv.FormatInt(added, 10), FactBinaryBytes, strconv.FormatInt(out.Binary, 10))
	c.Detail = fmt.Sprintf("%d bytes, the baseline's %d: %d added", out.Binary, out.Baseline, added)
	return c
}

// buildCell is the build case's cell, from the runs so far: the CPU-
// seconds of each cold build of the main and of the baseline beside it.
func buildCell(cpu, base []float64) results.MatrixCell {
	st := results.Summarize(cpu, 0.95)
	bst := results.Summarize(base, 0.95)
	added := make([]float64, len(cpu))
	for i := range cpu {
		added[i] = cpu[i] - base[i]
	}
	ast := results.Summarize(added, 0.95)
	c := cell(CaseBuild, Grade(ast.Median, 2, 8, 30), fmt.Sprintf("+%.1f s", ast.Median),
		FactBuildCPU, ff(st.Median), FactBuildLo, ff(st.Lo), FactBuildHi, ff(st.Hi), FactBuildAdded, ff(ast.Median))
	c.Detail = fmt.Sprintf("%s CPU-s a cold build (%s), the baseline's %s beside it; runs %s", ff(st.Median), interval(st), ff(bst.Median), floats(cpu))
	return c
}

// depsCell is the deps case's cell.
func depsCell(d Dependencies) results.MatrixCell {
	var lic, mods []string
	for _, mod := range d.Modules {
		mods = append(mods, mod.Path+"@"+mod.Version+" ("+mod.Licence+")")
		if !slices.Contains(lic, mod.Licence) {
			lic = append(lic, mod.Licence)
		}
	}
	o := Grade(float64(len(d.Modules)), 1, 3, 1e9)
	if len(d.Cgo) > 0 {
		o = VeryHeavy
	}
	c := cell(CaseDeps, o, fmt.Sprintf("%d mod, %d pkg", len(d.Modules), d.Packages),
		FactModules, strconv.Itoa(len(d.Modules)), FactPackages, strconv.Itoa(d.Packages), FactStd, strconv.Itoa(d.Std),
		FactLicences, strings.Join(lic, ", "), FactCgo, strconv.Itoa(len(d.Cgo)))
	c.Detail = fmt.Sprintf("modules: %s; %d standard packages more", orNone(strings.Join(mods, ", ")), d.Std)
	return c
}

// unsafeCell is the unsafe case's cell; a JIT the packages contradict
// makes it Contradicted.
func unsafeCell(info codec.Info, d Dependencies) results.MatrixCell {
	var parts []string
	o := Light
	if len(d.Unsafe) > 0 {
		parts, o = append(parts, fmt.Sprintf("unsafe %d", len(d.Unsafe))), Moderate
	}
	if len(d.Asm) > 0 {
		parts, o = append(parts, fmt.Sprintf("asm %d", len(d.Asm))), Heavy
	}
	if len(d.Cgo) > 0 {
		parts, o = append(parts, "cgo"), VeryHeavy
	}
	if len(d.JIT) > 0 {
		parts, o = append(parts, "JIT"), VeryHeavy
	}
	c := cell(CaseUnsafe, o, orNone(strings.Join(parts, " ")),
		FactUnsafe, strconv.Itoa(len(d.Unsafe)), FactAsm, strconv.Itoa(len(d.Asm)), FactJIT, strconv.Itoa(len(d.JIT)))
	c.Detail = fmt.Sprintf("unsafe: %s; assembly: %s; cgo: %s; JIT: %s", orNone(strings.Join(d.Unsafe, ", ")), orNone(strings.Join(d.Asm, ", ")),
		orNone(strings.Join(d.Cgo, ", ")), orNone(strings.Join(d.JIT, ", ")))
	if info.Adopt.JIT != "" {
		c.Detail += "; declared JIT: " + info.Adopt.JIT
	}
	if why := jitContradiction(info.Adopt, d); why != "" {
		c.Outcome, c.Note = Contradicted, why
	}
	return c
}

// codeCell is the code case's cell; a generator the code contradicts
// makes it Contradicted.
func codeCell(info codec.Info, cd Code) results.MatrixCell {
	o, note := Light, "none generated"
	if cd.Generated > 0 {
		o, note = Moderate, thousands(cd.Generated)+" gen"
		for _, t := range cd.Tools {
			if slices.Contains(externalTools, t) {
				o = Heavy
			}
		}
	}
	c := cell(CaseCode, o, note, FactGenerated, strconv.Itoa(cd.Generated), FactSchema, strconv.Itoa(cd.Schema),
		FactAdapter, strconv.Itoa(cd.Adapter), FactGenerator, info.Adopt.Generator)
	c.Detail = fmt.Sprintf("%d generated lines, %d schema lines, %d hand-written adapter lines (and %d of serbench's shared helpers); generator: %s",
		cd.Generated, cd.Schema, cd.Adapter, cd.Helpers, orNone(info.Adopt.Generator))
	if why := generatorContradiction(info.Adopt, cd); why != "" {
		c.Outcome, c.Note = Contradicted, why
	}
	return c
}

// deterministicCell is the deterministic case's cell, from the first
// child's findings and whether a second, fresh, child's hash agreed.
func deterministicCell(info codec.Info, d Determinism, fresh bool) results.MatrixCell {
	switch {
	case d.Reader != "":
		c := cell(CaseDeterministic, Unmeasured, "reader")
		c.Detail = "an in-place reader: it writes " + d.Reader + "'s encodings"
		return c
	case d.Hash == "":
		c := cell(CaseDeterministic, Unmeasured, "")
		c.Detail = d.Why
		return c
	}
	var differs []string
	if !d.Twice {
		differs = append(differs, "twice")
	}
	if !fresh {
		differs = append(differs, "fresh process")
	}
	if !d.Refill {
		differs = append(differs, "maps refilled")
	}
	o, note, det := Light, "same bytes", "yes"
	if len(differs) > 0 {
		o, note, det = Heavy, "differs: "+strings.Join(differs, ", "), "no"
	}
	if !d.Maps && o == Light {
		note += " (no maps)"
	}
	c := cell(CaseDeterministic, o, note, FactDeterministic, det, FactCanonical, info.Adopt.Canonical, FactDataset, d.Dataset)
	c.Detail = fmt.Sprintf("dataset %s (%d bytes), maps: %t; encoded twice the same: %t; in a fresh process: %t; maps filled in another order: %t",
		d.Dataset, d.Size, d.Maps, d.Twice, fresh, d.Refill)
	if info.Adopt.Canonical != "" {
		c.Detail += "; canonical mode: " + info.Adopt.Canonical
	}
	return c
}

// upkeepCell is the upkeep case's cell, ages measured at now.
func upkeepCell(u Upkeep, now time.Time) results.MatrixCell {
	if u.Module == "std" {
		c := cell(CaseUpkeep, Light, "std")
		c.Detail = "the standard library: it ships with Go"
		return c
	}
	if u.LatestDate.IsZero() {
		c := cell(CaseUpkeep, Unmeasured, "unknown", FactPinned, u.Pinned)
		c.Detail = u.Unknown
		return c
	}
	o := Grade(now.Sub(u.LatestDate).Hours()/24, 365, 730, 1e9)
	age := ""
	if a := u.Age(now); a > 0 {
		age = strconv.Itoa(int(a.Hours() / 24))
	}
	note := u.LatestDate.Format("2006-01")
	if u.NewerMajor != "" {
		note += " new major"
	}
	c := cell(CaseUpkeep, o, note, FactLatest, u.Latest, FactLatestDate, u.LatestDate.Format(time.DateOnly),
		FactPinned, u.Pinned, FactPinnedAge, age, FactNewerMajor, u.NewerMajor)
	c.Detail = fmt.Sprintf("latest %s of %s; pinned %s", u.Latest, u.LatestDate.Format(time.DateOnly), cmp.Or(u.Pinned, "unknown"))
	if age != "" {
		c.Detail += ", " + age + " days old"
	}
	if u.NewerMajor != "" {
		c.Detail += "; a newer major version exists: " + u.NewerMajor
	}
	return c
}

// Contradictions returns what a codec's packages and code contradict of
// its declarations (codec.Adoption): JIT declared without a dependency
// that maps memory executable, or such a dependency undeclared; a
// generator declared without generated code, or generated code without
// a generator declared.
func Contradictions(a codec.Adoption, d Dependencies, cd Code) []string {
	var out []string
	for _, why := range []string{jitContradiction(a, d), generatorContradiction(a, cd)} {
		if why != "" {
			out = append(out, why)
		}
	}
	return out
}

func jitContradiction(a codec.Adoption, d Dependencies) string {
	switch {
	case a.JIT != "" && len(d.JIT) == 0:
		return "declares JIT, but none of its packages maps memory executable"
	case a.JIT == "" && len(d.JIT) > 0:
		return "declares no JIT, but " + strings.Join(d.JIT, ", ") + " maps memory executable: declare it in Info.Adopt.JIT"
	}
	return ""
}

func generatorContradiction(a codec.Adoption, cd Code) string {
	switch {
	case a.Generator != "" && cd.Generated == 0:
		return "declares generator " + a.Generator + ", but none of its code is generated"
	case a.Generator == "" && cd.Generated > 0:
		return fmt.Sprintf("has %d generated lines (by %s) but declares no generator: declare it in Info.Adopt.Generator", cd.Generated, cmp.Or(strings.Join(cd.Tools, ", "), "a tool"))
	}
	return ""
}

// Grade returns Light for x up to light, Moderate up to moderate, Heavy
// up to heavy, and VeryHeavy beyond.
func Grade(x, light, moderate, heavy float64) results.Outcome {
	switch {
	case x <= light:
		return Light
	case x <= moderate:
		return Moderate
	case x <= heavy:
		return Heavy
	}
	return VeryHeavy
}

func mb(n int64) string {
	switch {
	case n < 0:
		return "-" + mb(-n)
	case n < 1e6:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}

func ff(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

func interval(s results.Stat) string {
	if s.Lo == 0 && s.Hi == 0 {
		return "interval unknown: too few builds"
	}
	return fmt.Sprintf("95%% interval %s to %s", ff(s.Lo), ff(s.Hi))
}

func floats(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, ff(x))
	}
	return strings.Join(s, " ")
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
