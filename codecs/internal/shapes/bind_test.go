package shapes_test

import (
	"reflect"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codecs/internal/shapes"
)

// msg and msgList stand for a generated message and its list message.
type msg struct{ N int }

type msgList struct{ Items []*msg }

type named interface{ name() string }

func (*msg) name() string     { return "msg" }
func (*msgList) name() string { return "list" }

func TestBind(t *testing.T) {
	typ := shapes.Bind[named](
		func(p *point) *msg { return &msg{N: p.X} },
		func(m *msg) point { return point{X: m.N} },
		func(items []*msg) *msgList { return &msgList{Items: items} },
		func(l *msgList) []*msg { return l.Items })
	for _, tc := range []struct {
		v    any
		name string // of the bound message
	}{
		{&point{X: 1}, "msg"},
		{&[]point{{X: 1}, {X: 2}}, "list"},
		{&[]*point{{X: 1}, {X: 2}}, "list"},
		{new([]point), "list"},
	} {
		b, ok := typ(tc.v)
		if !ok {
			t.Fatalf("Bind takes no %T", tc.v)
		}
		if got := b.Msg.name(); got != tc.name {
			t.Errorf("%T bound to %s, want %s", tc.v, got, tc.name)
		}
		// A message of the bound type, filled as a decoder would, comes
		// back as the value bound.
		out := b.New()
		reflect.ValueOf(out).Elem().Set(reflect.ValueOf(b.Msg).Elem())
		if got := b.Value(out); !reflect.DeepEqual(got, tc.v) {
			t.Errorf("Value of %T = %#v, want %#v", tc.v, got, tc.v)
		}
	}
	if _, ok := typ(&label{}); ok {
		t.Error("Bind takes a type it has no message for")
	}
}

func TestPointers(t *testing.T) {
	to := func(p *point) *msg { return &msg{N: p.X} }
	from := func(m *msg) point { return point{X: m.N} }
	if got := shapes.PtrTo(nil, to); got != nil {
		t.Errorf("PtrTo(nil) = %v, want nil", got)
	}
	if got := shapes.PtrFrom[point]((*msg)(nil), from); got != nil {
		t.Errorf("PtrFrom(nil) = %v, want nil", got)
	}
	if got := shapes.PtrSliceTo([]*point{nil, {X: 3}}, to); got[0] != nil || got[1].N != 3 {
		t.Errorf("PtrSliceTo = %v, want a nil element kept and 3", got)
	}
	if got := shapes.MapTo(map[string]int(nil), func(int) int { return 0 }); got != nil {
		t.Errorf("MapTo(nil) = %v, want nil", got)
	}
}

func TestNewCase(t *testing.T) {
	typ := shapes.Bind[named](
		func(p *point) *msg { return &msg{N: p.X} },
		func(m *msg) point { return point{X: m.N} },
		func(items []*msg) *msgList { return &msgList{Items: items} },
		func(l *msgList) []*msg { return l.Items })
	v := &point{X: 7}
	c, err := shapes.NewCase(func() (shapes.Binding[named], error) { b, _ := typ(v); return b, nil },
		func(m named, buf []byte) ([]byte, error) { return append(buf, byte(m.(*msg).N)), nil },
		func(m named, data []byte) error {
			m.(*msg).N = int(data[0])
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Value(); err == nil {
		t.Error("Value before Decode gave no error")
	}
	data, err := c.Encode()
	if err != nil || len(data) != 1 {
		t.Fatalf("Encode = %v, %v; want one byte", data, err)
	}
	if err := c.Decode(data); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Value(); err != nil || *v.(*point) != (point{X: 7}) {
		t.Errorf("Value = %v, %v; want &{7}", v, err)
	}
	// The buffer is kept: a second Encode reuses it.
	again, _ := c.Encode()
	if &again[0] != &data[0] {
		t.Error("Encode did not reuse its buffer")
	}
	// Reload binds the value, changed in place, again; the buffer is kept.
	v.X = 9
	if err := c.(codec.Reloader).Reload(); err != nil {
		t.Fatal(err)
	}
	if again, _ = c.Encode(); len(again) != 1 || again[0] != 9 || &again[0] != &data[0] {
		t.Errorf("Encode after Reload = %v, want [9] in the same buffer", again)
	}
}
