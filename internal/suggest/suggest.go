// Package suggest reports names that are not among the known ones, each
// with the known names closest to it, so that an error says what to type
// instead.
package suggest

import (
	"fmt"
	"slices"
	"strings"
)

// An unknownError reports names of one kind (codecs, datasets, ...) that
// are not among the known ones.
type unknownError struct {
	Kind    string   // singular: "codec"
	Names   []string // the unknown names, as given
	Known   []string // every known name, in display order
	Aliases Aliases  // other names of known names, for suggestions
	// List is the command that lists the known names, named instead of
	// them when there are more than maxListed.
	List string
}

// maxListed is the most known names an unknownError lists.
const maxListed = 16

// Aliases maps a lowercase other name (a family, a label) to the known
// names it stands for.
type Aliases map[string][]string

// Add records alias as another name of name.
func (a Aliases) Add(alias, name string) {
	alias = strings.ToLower(alias)
	if alias != "" && !slices.Contains(a[alias], name) {
		a[alias] = append(a[alias], name)
	}
}

// Check returns an *unknownError naming every one of names that is not
// in known, or nil if all are.
func Check(kind string, names, known []string, aliases Aliases, list string) error {
	var unknown []string
	for _, n := range names {
		if !slices.Contains(known, n) && !slices.Contains(unknown, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return &unknownError{Kind: kind, Names: unknown, Known: known, Aliases: aliases, List: list}
}

func (e *unknownError) Error() string {
	var b strings.Builder
	b.WriteString("unknown " + e.Kind)
	if len(e.Names) > 1 {
		b.WriteString("s")
	}
	for i, n := range e.Names {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %q", n)
		if c := closest(n, e.Known, e.Aliases); len(c) > 0 {
			fmt.Fprintf(&b, " (did you mean %s?)", orList(c))
		}
	}
	if len(e.Known) <= maxListed || e.List == "" {
		b.WriteString("; known: " + strings.Join(e.Known, ", "))
	} else {
		fmt.Fprintf(&b, "; run '%s' to see all %d", e.List, len(e.Known))
	}
	return b.String()
}

// Hint returns " (did you mean A or B?)" naming the known names closest
// to name, or "" when none is close: for a message of another form than
// Check's.
func Hint(name string, known []string) string {
	if c := closest(name, known, nil); len(c) > 0 {
		return " (did you mean " + orList(c) + "?)"
	}
	return ""
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// maxSuggested is the most names closest returns.
const maxSuggested = 3

// closest returns up to three known names close to name, best first:
// the one that differs only in case, alone; else those an alias equal to name stands for
// ("protobuf": the codecs of that family); those within a small edit
// distance ("msgpck": msgpack), nearest first; then those that begin with
// name or that name begins with ("proto" in "protobuf").
func closest(name string, known []string, aliases Aliases) []string {
	lower := strings.ToLower(name)
	var out []string
	add := func(k string) {
		if len(out) < maxSuggested && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, k := range known {
		if strings.ToLower(k) == lower {
			return []string{k}
		}
	}
	for _, k := range aliases[lower] {
		add(k)
	}
	// Within a third of the shorter name's length, and at least one edit.
	type near struct {
		name string
		d    int
	}
	var nears []near
	for _, k := range known {
		kl := strings.ToLower(k)
		limit := max(1, min(len([]rune(lower)), len([]rune(kl)))/3)
		if d := distance(lower, kl); d <= limit {
			nears = append(nears, near{k, d})
		}
	}
	slices.SortStableFunc(nears, func(a, b near) int { return a.d - b.d })
	for _, n := range nears {
		add(n.name)
	}
	if len([]rune(lower)) >= 3 {
		for _, k := range known {
			kl := strings.ToLower(k)
			if strings.HasPrefix(kl, lower) || len(kl) >= 3 && strings.HasPrefix(lower, kl) {
				add(k)
			}
		}
	}
	return out
}

// distance is the optimal string alignment distance between a and b, in
// runes: Levenshtein's, with two adjacent runes swapped counted as one
// edit ("jsno" is one from "json").
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
