package planted

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/verify"
)

func lookup(t *testing.T, name string) codec.Info {
	t.Helper()
	for _, c := range Codecs {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no planted codec %q", name)
	return codec.Info{}
}

func prepare(t *testing.T, name string, v any) codec.Case {
	t.Helper()
	c, err := lookup(t, name).New().Prepare(v)
	if err != nil {
		t.Fatalf("%s: Prepare: %v", name, err)
	}
	return c
}

func encode(t *testing.T, c codec.Case) []byte {
	t.Helper()
	enc, err := c.Encode()
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return append([]byte(nil), enc...)
}

// decode decodes data and returns the Case's Value.
func decode(t *testing.T, c codec.Case, data []byte) any {
	t.Helper()
	if err := c.Decode(data); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	got, err := c.Value()
	if err != nil {
		t.Fatalf("Value: %v", err)
	}
	return got
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	enc, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func value(t *testing.T, name string, s dataset.Shape) any {
	t.Helper()
	d, err := dataset.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	v, err := d.Value(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCodecs(t *testing.T) {
	if n := len(Codecs); n != 34 {
		t.Errorf("%d planted codecs, want 34", n)
	}
	for _, c := range Evaders {
		if Weakness[c.Name] == 0 {
			t.Errorf("evader %s names no weakness", c.Name)
		}
	}
	for _, c := range RoundTwo {
		if WeaknessTwo[c.Name] == 0 {
			t.Errorf("round-two evader %s names no weakness", c.Name)
		}
	}
	for _, c := range RoundThree {
		if WeaknessThree[c.Name] == 0 {
			t.Errorf("round-three evader %s names no weakness", c.Name)
		}
	}
	for _, c := range RoundFour {
		if WeaknessFour[c.Name] == 0 {
			t.Errorf("round-four evader %s names no weakness", c.Name)
		}
	}
	seen := map[string]bool{}
	for _, c := range Codecs {
		if err := c.Validate(); err != nil {
			t.Error(err)
		}
		if seen[c.Name] {
			t.Errorf("%s listed twice", c.Name)
		}
		seen[c.Name] = true
		if !strings.HasPrefix(c.Name, "planted-") || c.Family != "planted" || c.Module != "std" ||
			c.API != codec.Reflection && !c.ValueConverts || c.Label == "" || c.URL == "" || !strings.HasPrefix(c.Notes, "planted fault: ") {
			t.Errorf("%s: Info not as planted codecs are described: %+v", c.Name, c)
		}
	}
	for _, c := range Crashers {
		if Triggers[c.Name] == nil {
			t.Errorf("crasher %s has no trigger type", c.Name)
		}
	}
	if len(Triggers) != len(Crashers) {
		t.Errorf("%d triggers for %d crashers", len(Triggers), len(Crashers))
	}
}

// honestCases lists the dataset values every planted codec must handle as
// json does on its first round trip (crashers: unless it is their
// trigger): every dataset in every shape but those of tens of megabytes
// (tooLarge) and the corpora of a megabyte or more, the same planted code
// on the same types, which took most of the package's time.
func honestCases(t *testing.T) map[string]func() any {
	cases := map[string]func() any{}
	for _, d := range dataset.All {
		for _, s := range d.Shapes() {
			if d.XLSlices || tooLarge[d.Name+"/"+string(s)] || d.Corpus != nil && d.Corpus.Size >= 1<<20 {
				continue
			}
			cases[d.Name+"/"+string(s)] = func() any { return value(t, d.Name, s) }
		}
	}
	return cases
}

// tooLarge names the dataset shapes whose json is tens of megabytes; the
// same types are in the list in a smaller shape (huge and complexmap5
// single).
var tooLarge = map[string]bool{
	"huge/slice": true, "huge/ptrslice": true,
	"complexmap5/slice": true, "complexmap5/ptrslice": true,
}

// TestFirstRoundTripHonest checks that every planted codec's first
// encoding is json's and its first decoded value json's, on every value
// but a crasher's trigger. json's encoding and decoded value are made
// once per value, for all the codecs.
func TestFirstRoundTripHonest(t *testing.T) {
	for name, build := range honestCases(t) {
		ref := build()
		want, err := json.Marshal(ref)
		if err != nil {
			t.Logf("%s: json cannot encode it: %v", name, err)
			continue
		}
		wantV := reflect.New(reflect.TypeOf(ref).Elem()).Interface()
		if err := json.Unmarshal(want, wantV); err != nil {
			t.Fatal(err)
		}
		for _, info := range Codecs {
			if info.Name == Handle || info.Name == LoopGzip || info.Name == SmallFirst || info.Name == Index {
				continue // not json on the wire (a codec's first case, an early build)
			}
			v := build()
			if elemType(reflect.TypeOf(v)) == Triggers[info.Name] {
				continue
			}
			c := prepare(t, info.Name, v)
			enc := encode(t, c)
			if !bytes.Equal(enc, want) {
				t.Errorf("%s on %s: first encoding differs from json's", info.Name, name)
				continue
			}
			if err := verify.Equal(wantV, decode(t, c, enc), nil); err != nil {
				t.Errorf("%s on %s: first decoded value differs from json's: %v", info.Name, name, err)
			}
		}
	}
}

// TestCrashersHonestElsewhere checks every crasher over many calls on
// values that are not its trigger, and that on its trigger Prepare and
// Encode are still honest.
func TestCrashersHonestElsewhere(t *testing.T) {
	for _, info := range Crashers {
		for _, d := range []string{"tiny", "medium", "big", "user", "int64", "game"} {
			for _, s := range []dataset.Shape{dataset.Single, dataset.Slice, dataset.PtrSlice} {
				if d == "int64" && s != dataset.Single {
					continue
				}
				v, ref := value(t, d, s), value(t, d, s)
				c := prepare(t, info.Name, v)
				enc := encode(t, c)
				if !bytes.Equal(enc, marshal(t, ref)) {
					t.Errorf("%s on %s/%s: encoding differs from json's", info.Name, d, s)
				}
				if elemType(reflect.TypeOf(v)) == Triggers[info.Name] {
					if _, ok := c.(*crashCase); !ok {
						t.Errorf("%s on its trigger %s/%s: no crashing Case", info.Name, d, s)
					}
					continue // Decode would crash
				}
				for range 3 {
					if err := verify.Equal(ref, decode(t, c, enc), nil); err != nil {
						t.Errorf("%s on %s/%s: %v", info.Name, d, s, err)
					}
				}
			}
		}
	}
}

func TestElemType(t *testing.T) {
	tiny := reflect.TypeFor[dataset.Tiny]()
	for _, v := range []any{&dataset.Tiny{}, &[]dataset.Tiny{}, &[]*dataset.Tiny{}} {
		if got := elemType(reflect.TypeOf(v)); got != tiny {
			t.Errorf("elemType(%T) = %v, want dataset.Tiny", v, got)
		}
	}
	if got := elemType(reflect.TypeFor[*dataset.Medium]()); got == tiny {
		t.Errorf("elemType(*dataset.Medium) = %v", got)
	}
}

func TestInput(t *testing.T) {
	v := &dataset.Tiny{ID: 7, SomeStr: "x"}
	c := prepare(t, Input, v)
	enc := encode(t, c)
	if got := decode(t, c, enc); got != any(v) {
		t.Errorf("Value = %p, want the input pointer %p", got, v)
	}
	// The input comes back even when the decoded data says otherwise...
	if got := decode(t, c, marshal(t, &dataset.Tiny{ID: 8})); got != any(v) || v.ID != 7 {
		t.Errorf("Value = %+v, want the untouched input", got)
	}
	// ...though Decode really runs json.
	if err := c.Decode([]byte("{")); err == nil {
		t.Error("Decode of broken json succeeded")
	}
}

func TestCachedEncode(t *testing.T) {
	v := &dataset.Tiny{ID: 7, SomeStr: "x"}
	c := prepare(t, CachedEncode, v)
	first := encode(t, c)
	v.ID, v.SomeStr = 8, "changed"
	if second := encode(t, c); !bytes.Equal(second, first) {
		t.Errorf("second encoding %s, want the cached %s", second, first)
	}
	if honest := marshal(t, v); bytes.Equal(honest, first) {
		t.Fatalf("the change does not show in json: %s", honest)
	}
	// Decode is honest.
	if got := decode(t, c, marshal(t, v)); !reflect.DeepEqual(got, v) || got == any(v) {
		t.Errorf("Decode = %+v, want a copy of %+v", got, v)
	}
}

func TestMemoDecode(t *testing.T) {
	a, b := &[]dataset.Tiny{dataset.NewTiny(0)}, &[]dataset.Tiny{dataset.NewTiny(1), dataset.NewTiny(2)}
	c := prepare(t, MemoDecode, a)
	first := decode(t, c, encode(t, c))
	if !reflect.DeepEqual(first, a) {
		t.Fatalf("first Decode = %+v, want %+v", first, a)
	}
	for _, data := range [][]byte{marshal(t, b), []byte("not json")} {
		if err := c.Decode(data); err != nil {
			t.Errorf("later Decode(%s): %v", data, err)
		}
		if got, _ := c.Value(); got != first {
			t.Errorf("after Decode(%s), Value = %+v, want the first decoded value", data, got)
		}
	}
}

// corrupted lists values and what corrupt makes of them, afresh each call.
func corrupted() []struct{ in, want any } {
	return []struct{ in, want any }{
		{&dataset.Tiny{ID: 1, SomeStr: "a"}, &dataset.Tiny{SomeStr: "a"}},
		{&dataset.Tiny{SomeStr: "a"}, &dataset.Tiny{}},                                                  // first non-zero field
		{&dataset.Tiny{}, &dataset.Tiny{ID: 1}},                                                         // all zero: the first changes
		{&[]dataset.Tiny{{ID: 1}, {ID: 2}}, &[]dataset.Tiny{{ID: 1}}},                                   // last element dropped
		{&[]*dataset.Tiny{{ID: 1}}, &[]*dataset.Tiny{}},                                                 // down to empty
		{&[]int{}, &[]int{0}},                                                                           // empty: grows
		{&map[string]int{"b": 2, "a": 1}, &map[string]int{"b": 2}},                                      // first key in order
		{ptr(int64(23422)), ptr(int64(23423))},                                                          // scalars
		{ptr(2.5), ptr(-2.5)},                                                                           //
		{ptr(true), ptr(false)},                                                                         //
		{ptr("s"), ptr("sx")},                                                                           //
		{ptr(dataset.Base), ptr(dataset.Base.Add(time.Second))},                                         // a time
		{&dataset.Edge{EmptySlice: []int32{}}, &dataset.Edge{}},                                         // empty non-nil is not zero
		{&dataset.ComplexMap{"0": {}, "1": {}}, &dataset.ComplexMap{"1": {}}},                           //
		{&dataset.Metric{Timestamp: 1, Value: 2}, &dataset.Metric{Value: 2}},                            //
		{&dataset.Big{Tiny: dataset.Tiny{ID: 3}}, &dataset.Big{}},                                       //
		{&[1]dataset.User{{Name: "n"}}, &[1]dataset.User{{}}},                                           // an array's first element
		{&struct{ x, Y int }{x: 1}, &struct{ x, Y int }{x: 1, Y: 1}},                                    // unexported fields kept
		{&struct{ I any }{I: 1}, &struct{ I any }{}},                                                    //
		{&struct{ P *int }{}, &struct{ P *int }{P: new(int)}},                                           //
		{&dataset.A{I1: 1, Bmap1: map[string]*dataset.B{}}, &dataset.A{Bmap1: map[string]*dataset.B{}}}, //
	}
}

func ptr[T any](v T) *T { return &v }

func TestCorrupt(t *testing.T) {
	for _, c := range corrupted() {
		in := c.in
		corrupt(in)
		if !reflect.DeepEqual(in, c.want) {
			t.Errorf("corrupt: got %+v, want %+v", reflect.ValueOf(in).Elem(), reflect.ValueOf(c.want).Elem())
		}
	}
}

func TestLossyLater(t *testing.T) {
	for _, c := range []struct {
		dataset string
		shape   dataset.Shape
	}{{"tiny", dataset.Single}, {"big", dataset.Slice}, {"medium", dataset.PtrSlice}, {"int64", dataset.Single}, {"complexdata", dataset.Single}} {
		v, ref := value(t, c.dataset, c.shape), value(t, c.dataset, c.shape)
		lossy := value(t, c.dataset, c.shape)
		corrupt(lossy)
		cs := prepare(t, LossyLater, v)
		enc := encode(t, cs)
		if err := verify.Equal(ref, decode(t, cs, enc), nil); err != nil {
			t.Errorf("%s/%s: first Decode: %v", c.dataset, c.shape, err)
		}
		for call := 2; call <= 4; call++ {
			got := decode(t, cs, enc)
			if verify.Equal(ref, got, nil) == nil || !reflect.DeepEqual(got, lossy) {
				t.Errorf("%s/%s: Decode call %d = %+v, want the corrupted value", c.dataset, c.shape, call, got)
			}
		}
	}
}

func TestRareLoss(t *testing.T) {
	v, ref := value(t, "tiny", dataset.Slice), value(t, "tiny", dataset.Slice)
	c := prepare(t, RareLoss, v)
	enc := encode(t, c)
	for call := 1; call <= 2*RareLossEvery+1; call++ {
		got := decode(t, c, enc)
		wrong := verify.Equal(ref, got, nil) != nil
		if want := call == RareLossEvery || call == 2*RareLossEvery; wrong != want {
			t.Fatalf("Decode call %d: wrong = %v, want %v", call, wrong, want)
		}
	}
}

func TestGrowing(t *testing.T) {
	v, ref := value(t, "medium", dataset.Slice), value(t, "medium", dataset.Slice)
	c := prepare(t, Growing, v)
	want := marshal(t, ref)
	for call := 1; call <= 5; call++ {
		enc := encode(t, c)
		if len(enc) != len(want)+call-1 || !bytes.Equal(enc[:len(want)], want) || len(bytes.TrimRight(enc, " ")) != len(want) {
			t.Errorf("Encode call %d: %d bytes, want json's %d plus %d spaces", call, len(enc), len(want), call-1)
		}
		if err := verify.Equal(ref, decode(t, c, enc), nil); err != nil {
			t.Errorf("Encode call %d: decoding it: %v", call, err)
		}
	}
}

func TestNoop(t *testing.T) {
	v, ref := value(t, "game", dataset.Slice), value(t, "game", dataset.Slice)
	c := prepare(t, Noop, v)
	enc, err := c.Encode()
	if err != nil || !bytes.Equal(enc, marshal(t, ref)) {
		t.Fatalf("Encode = %s, %v, want json", enc, err)
	}
	first := decode(t, c, enc)
	if err := verify.Equal(ref, first, nil); err != nil {
		t.Fatal(err)
	}
	if first == any(v) {
		t.Error("Value is the input; want the value decoded in Prepare")
	}
	// The value changes and the data is garbage: nothing moves.
	(*v.(*[]dataset.A))[0].I1 = 99
	if again, _ := c.Encode(); &again[0] != &enc[0] {
		t.Error("Encode returned new bytes, want the stored ones")
	}
	if got := decode(t, c, []byte("not json")); got != first {
		t.Errorf("after Decode of garbage, Value = %p, want the stored %p", got, first)
	}
}

// crashEnv names the crasher TestHelperCrash runs in a subprocess.
const crashEnv = "SERBENCH_PLANTED_CRASH"

// crashReady is printed by the helper just before the fatal Decode.
const crashReady = "planted: decoding the trigger"

// TestHelperCrash is not a test: run by TestCrashers in a subprocess, it
// decodes the trigger of the crasher named in $SERBENCH_PLANTED_CRASH.
func TestHelperCrash(t *testing.T) {
	name := os.Getenv(crashEnv)
	if name == "" {
		t.Skip("run by TestCrashers in a subprocess")
	}
	trigger := Triggers[name]
	var v any
	for _, d := range dataset.All {
		if d.Type() == trigger {
			v, _ = d.Value(dataset.Single)
		}
	}
	if v == nil {
		t.Fatalf("no dataset of %s's trigger %v", name, trigger)
	}
	c := prepare(t, name, v)
	enc := encode(t, c)
	switch name {
	case Stack:
		// Only here, in the subprocess: at Go's default 1 GB maximum the
		// overflow takes seconds and gigabytes; 64 MB overflows the same
		// way, at once.
		debug.SetMaxStack(64 << 20)
	case OOM:
		limitAddressSpace(t)
	}
	fmt.Println(crashReady)
	err := c.Decode(enc)
	t.Fatalf("%s: Decode of its trigger returned (%v)", name, err)
}

// crashCmd returns the command that runs TestHelperCrash on name, its
// stdout piped.
func crashCmd(t *testing.T, name string) (*exec.Cmd, *bufio.Reader, *bytes.Buffer) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The helper's own timeout ends it should this process die first.
	cmd := exec.Command(exe, "-test.run=^TestHelperCrash$", "-test.count=1", "-test.timeout=60s")
	cmd.Env = append(os.Environ(), crashEnv+"="+name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewReader(out), &stderr
}

// TestCrashers runs each crasher on its trigger in a subprocess: the fatal
// ones must die with the runtime's error, planted-hang must still be
// running 200ms after it started decoding (it is then killed).
func TestCrashers(t *testing.T) {
	fatal := map[string]string{Stack: "fatal error: stack overflow", OOM: "out of memory", MapWrite: "fatal error: concurrent map writes"}
	for _, info := range Crashers {
		t.Run(info.Name, func(t *testing.T) {
			t.Parallel()
			cmd, stdout, stderr := crashCmd(t, info.Name)
			exited := make(chan error, 1)
			ready := make(chan bool, 1)
			go func() {
				var saw bool
				for {
					line, err := stdout.ReadString('\n')
					if strings.TrimSpace(line) == crashReady {
						saw = true
						ready <- true
					}
					if err != nil {
						break
					}
				}
				if !saw {
					ready <- false
				}
				exited <- cmd.Wait() // after stdout is drained, as Wait requires
			}()
			defer func() {
				cmd.Process.Kill() // in every path; an error only says it is gone
				<-exited
			}()
			select {
			case ok := <-ready:
				if !ok {
					t.Fatalf("the helper ended before decoding; stderr:\n%s", stderr)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the helper did not start decoding within 30s")
			}
			want, isFatal := fatal[info.Name]
			if !isFatal { // planted-hang
				select {
				case err := <-exited:
					exited <- err // for the deferred wait
					t.Fatalf("the helper ended (%v) instead of hanging; stderr:\n%s", err, stderr)
				case <-time.After(200 * time.Millisecond):
				}
				return
			}
			select {
			case err := <-exited:
				exited <- err
				if err == nil {
					t.Fatalf("the helper succeeded; stderr:\n%s", stderr)
				}
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("the helper failed (%v) without %q; stderr:\n%.2000s", err, want, stderr)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the helper did not crash within 30s; stderr:\n%.2000s", stderr)
			}
		})
	}
}
