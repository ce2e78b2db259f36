package preset

import (
	"slices"
	"strings"

	"github.com/serbench/serbench/results"
)

// Label names selection s as run from preset p, for the record of the
// run: p's name when s is p's selection, else the name followed by what
// changed, as the flags of serbench run say it:
// "quick (custom: -codecs json,gob -shapes single)".
func (p Preset) Label(s Selection) string {
	var changed []string
	if !slices.Equal(s.Codecs, p.Codecs) {
		changed = append(changed, "-codecs "+orAll(s.Codecs))
	}
	if !slices.Equal(s.Datasets, p.Datasets) {
		changed = append(changed, "-datasets "+orAll(s.Datasets))
	}
	if !slices.Equal(s.Shapes, p.Shapes) {
		changed = append(changed, "-shapes "+orAll(s.Shapes))
	}
	if ops := func(s Selection) []results.Op {
		if len(s.Ops) == 0 {
			return results.Ops
		}
		return s.Ops
	}; !slices.Equal(ops(s), ops(p.Selection)) {
		changed = append(changed, "-ops "+orAll(s.Ops))
	}
	if s.XL != p.XL {
		changed = append(changed, "-xl")
	}
	if len(changed) == 0 {
		return p.Name
	}
	return p.Name + " (custom: " + strings.Join(changed, " ") + ")"
}

// orAll joins names with commas, "all" for none.
func orAll[T ~string](names []T) string {
	if len(names) == 0 {
		return "all"
	}
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(n))
	}
	return b.String()
}
