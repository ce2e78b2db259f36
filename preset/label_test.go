package preset_test

import (
	"testing"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
)

func TestLabel(t *testing.T) {
	quick, err := preset.Lookup("quick")
	if err != nil {
		t.Fatal(err)
	}
	gobProto, _ := preset.Lookup("gob-proto") // lists its ops
	custom := func(p preset.Preset, change func(*preset.Selection)) preset.Selection {
		s := p.Selection
		change(&s)
		return s
	}
	for _, tc := range []struct {
		p    preset.Preset
		sel  preset.Selection
		want string
	}{
		{quick, quick.Selection, "quick"},
		{quick, custom(quick, func(s *preset.Selection) { s.Codecs = []string{"json", "gob"} }), "quick (custom: -codecs json,gob)"},
		{quick, custom(quick, func(s *preset.Selection) {
			s.Datasets = []string{"tiny"}
			s.Shapes = []dataset.Shape{dataset.Single}
			s.Ops = []results.Op{results.Encode}
			s.XL = true
		}), "quick (custom: -datasets tiny -shapes single -ops encode -xl)"},
		{quick, custom(quick, func(s *preset.Selection) { s.Ops = results.Ops }), "quick"}, // both ops are quick's
		{gobProto, custom(gobProto, func(s *preset.Selection) { s.Ops = nil }), "gob-proto"},
	} {
		if got := tc.p.Label(tc.sel); got != tc.want {
			t.Errorf("Label = %q, want %q", got, tc.want)
		}
	}
}
