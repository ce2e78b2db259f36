package cli

import (
	"cmp"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/interop"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/study"
)

func TestWrapHanging(t *testing.T) {
	for _, tc := range []struct {
		s           string
		first, rest int
		want        []string
	}{
		{"", 10, 10, []string{""}},
		{"one two three", 20, 20, []string{"one two three"}},
		{"one two three", 7, 7, []string{"one two", "three"}},
		{"one two three four", 3, 9, []string{"one", "two three", "four"}},
		{"abcdefghij kl", 4, 4, []string{"abcd", "efgh", "ij", "kl"}},
		{"héllo wörld", 5, 5, []string{"héllo", "wörld"}},
		{"a b", 0, 0, []string{"a", "b"}},
	} {
		if got := wrapHanging(tc.s, tc.first, tc.rest); !slices.Equal(got, tc.want) {
			t.Errorf("wrapHanging(%q, %d, %d) = %q, want %q", tc.s, tc.first, tc.rest, got, tc.want)
		}
	}
}

// TestListingWrite checks a listing's layout: aligned columns, the last
// wrapped beside them or moved under each row when it would be narrow,
// and notes indented with their continuation lines hung after "key: ".
func TestListingWrite(t *testing.T) {
	l := listing{
		header: []string{"NAME", "KIND", "DESCRIPTION"},
		rows: []row{
			{cells: []string{"a", "short", "one line"}},
			{cells: []string{"bbbb", "k", "a description long enough to wrap at the width"}, notes: []string{"loses: nil-empty, nil-pointer-zero, time-zone"}},
		},
	}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{60, "" +
			"NAME  KIND   DESCRIPTION\n" +
			"a     short  one line\n" +
			"bbbb  k      a description long enough to wrap at the width\n" +
			"    loses: nil-empty, nil-pointer-zero, time-zone\n"},
		{55, "" +
			"NAME  KIND   DESCRIPTION\n" +
			"a     short  one line\n" +
			"bbbb  k      a description long enough to wrap at the\n" +
			"             width\n" +
			"    loses: nil-empty, nil-pointer-zero, time-zone\n"},
		{40, "" +
			"NAME  KIND\n" +
			"a     short\n" +
			"    one line\n" +
			"bbbb  k\n" +
			"    a description long enough to wrap at\n" +
			"      the width\n" +
			"    loses: nil-empty, nil-pointer-zero,\n" +
			"           time-zone\n"},
	} {
		var b strings.Builder
		if err := l.write(&b, tc.width); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != tc.want {
			t.Errorf("width %d:\n%s\nwant:\n%s", tc.width, got, tc.want)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if utf8.RuneCountInString(line) > tc.width {
				t.Errorf("width %d: line of %d columns: %q", tc.width, utf8.RuneCountInString(line), line)
			}
		}
	}
}

// TestList checks what list prints: every registered codec, dataset and
// preset under its header, the argument before or after -v, and each
// codec's unlike-for-like notes.
func TestList(t *testing.T) {
	err, all, _ := run("list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names() {
		if !hasLineStarting(all, name+" ") {
			t.Errorf("list lacks a line for %s", name)
		}
	}
	for _, h := range []string{"CODEC ", "DATASET ", "PRESET "} {
		if !hasLineStarting(all, h) {
			t.Errorf("list lacks the header %s", h)
		}
	}
	for _, line := range strings.Split(all, "\n") {
		if n := utf8.RuneCountInString(line); n > listWidth {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	err, short, _ := run("list", "codecs")
	if err != nil || hasLineStarting(short, "DATASET") || strings.Contains(short, "    home: ") {
		t.Errorf("list codecs: %v; it lists more than the codecs' short form:\n%s", err, short)
	}
	_, before, _ := run("list", "-v", "codecs")
	_, after, _ := run("list", "codecs", "-v")
	if before != after || !strings.Contains(before, "    home: https://") {
		t.Errorf("list -v codecs and list codecs -v differ, or lack home pages")
	}
	for _, c := range registry.Codecs {
		if c.Variant != "" && !strings.Contains(short, "    variant: "+c.Variant[:min(len(c.Variant), 20)]) {
			t.Errorf("list codecs lacks %s's variant", c.Name)
		}
	}
}

// names returns every name list prints at the start of a line.
func names() []string {
	var out []string
	for _, c := range registry.Codecs {
		out = append(out, c.Name)
	}
	for _, d := range dataset.All {
		out = append(out, d.Name)
	}
	for _, p := range preset.All {
		out = append(out, p.Name)
	}
	return out
}

func hasLineStarting(s, prefix string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	return false
}

func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		args []string
		what string
		long bool
		err  string
	}{
		{nil, "codecs datasets presets", false, ""},
		{[]string{"-v"}, "codecs datasets presets", true, ""},
		{[]string{"datasets"}, "datasets", false, ""},
		{[]string{"codecs", "-v"}, "codecs", true, ""},
		{[]string{"-v", "presets"}, "presets", true, ""},
		{[]string{"probes"}, "probes", false, ""},
		{[]string{"codecs", "presets"}, "", false, "at most one argument"},
		{[]string{"-v", "codecs", "presets"}, "", false, "at most one argument"},
		{[]string{"shapes"}, "", false, `cannot list "shapes"`},
	} {
		what, long, err := parseList(tc.args, io.Discard)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || ExitCode(err) != 2 {
				t.Errorf("parseList(%q): %v, want a usage error saying %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(what, " ") != tc.what || long != tc.long {
			t.Errorf("parseList(%q) = %q, %v, %v; want %q, %v", tc.args, what, long, err, tc.what, tc.long)
		}
	}
	for _, w := range []string{"codecs", "datasets", "presets"} {
		if l := listingOf(w, false); len(l.rows) == 0 || !strings.HasPrefix(l.header[0], strings.ToUpper(w[:len(w)-1])) {
			t.Errorf("listing of %s: header %q, %d rows", w, l.header, len(l.rows))
		}
	}
}

// TestStudyCasesListed checks that the list each study command's help
// points to ("see serbench list costs") exists and lists its cases.
func TestStudyCasesListed(t *testing.T) {
	for _, s := range []*study.Study{fidelity.Spec(), hostile.Spec(false), evolve.Spec(), interop.Spec(nil), cost.Spec(cost.Options{})} {
		word := cmp.Or(s.CaseList, "cases")
		if !slices.Contains(lists, word) {
			t.Errorf("%s: its -%s help says 'see serbench list %s', which is not a list; add it to lists and listingOf (list.go)", s.Matrix.Name, word, word)
			continue
		}
		if got := len(listingOf(word, false).rows); got == 0 {
			t.Errorf("%s: serbench list %s lists nothing", s.Matrix.Name, word)
		}
	}
}
