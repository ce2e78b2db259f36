package codec_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
)

func TestFeaturesOf(t *testing.T) {
	tests := []struct {
		v    any
		want codec.Features
	}{
		{new(int64), codec.TopLevelScalar},
		{new(dataset.Metric), 0},
		{new([]dataset.Metric), codec.TopLevelSlice},
		{new([]*dataset.Metric), codec.TopLevelSlice | codec.Pointer | codec.VariableSize},
		{new(dataset.Tiny), codec.VariableSize},
		{new(dataset.Medium), codec.VariableSize | codec.Pointer | codec.Time},
		{new(dataset.ComplexMap), codec.Map | codec.VariableSize | codec.Pointer | codec.Time},
		{new(map[int]string), codec.Map | codec.NonStringKey | codec.VariableSize},
		{new(struct{ X any }), codec.Interface | codec.VariableSize},
		{new(time.Time), codec.Time | codec.VariableSize},
		{new(dataset.Golang), codec.Pointer | codec.VariableSize | codec.Recursive},
		{new(dataset.Canada), codec.VariableSize | codec.Array},
		{new(struct{ A, B dataset.Tiny }), codec.VariableSize}, // a type met twice, not in itself
	}
	for _, tt := range tests {
		if got := codec.FeaturesOf(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("FeaturesOf(%T) = %s; want %s", tt.v, got, tt.want)
		}
	}
}

func TestInfoValidate(t *testing.T) {
	ok := codec.Info{Name: "x", Family: "x", API: codec.Reflection, New: func() codec.Codec { return nil }}
	tests := []struct {
		mod  func(*codec.Info)
		want string
	}{
		{func(*codec.Info) {}, ""},
		{func(i *codec.Info) { i.Name = "JSON" }, "must be lowercase"},
		{func(i *codec.Info) { i.Name = "a/b" }, "must be lowercase without spaces"},
		{func(i *codec.Info) { i.New = nil }, "no New func"},
		{func(i *codec.Info) { i.Losses = []codec.Loss{{Kind: codec.TimePrecision}} }, "needs a positive Precision"},
		{func(i *codec.Info) { i.Losses = []codec.Loss{{Kind: "vibes"}} }, `unknown loss kind "vibes"`},
		{func(i *codec.Info) { i.Losses = []codec.Loss{{Kind: codec.Monotonic}} }, "allowed for every codec"},
	}
	for _, tt := range tests {
		info := ok
		tt.mod(&info)
		err := info.Validate()
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate() = %v, want %q", err, tt.want)
		}
	}
	if err := ok.Supports("T", codec.Map); err != nil {
		t.Errorf("Supports: %v", err)
	}
	ok.Unsupported = codec.Map | codec.Time
	if err := ok.Supports("T", codec.Time|codec.Pointer); err == nil || !strings.Contains(err.Error(), "cannot represent time.Time") {
		t.Errorf("Supports = %v, want the time.Time refusal", err)
	}
}
