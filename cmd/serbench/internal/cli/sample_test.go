package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestLoadSampleBinary loads CBOR and MessagePack documents into the
// generic form: string-keyed maps, int64 integers, float64 floats.
func TestLoadSampleBinary(t *testing.T) {
	doc := map[string]any{"id": uint8(7), "neg": int16(-3), "f": float32(1.5), "l": []any{"a", true, nil}, "m": map[any]any{1: "one"}}
	want := map[string]any{"id": int64(7), "neg": int64(-3), "f": 1.5, "l": []any{"a", true, nil}, "m": map[string]any{"1": "one"}}
	dir := t.TempDir()
	for name, marshal := range map[string]func(any) ([]byte, error){"doc.cbor": cbor.Marshal, "doc.msgpack": msgpack.Marshal} {
		data, err := marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := loadSample(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := *s.value.(*map[string]any); !reflect.DeepEqual(got, want) {
			t.Errorf("%s loaded as %#v; want %#v", name, got, want)
		}
		if s.doc.File != name || s.doc.Bytes != int64(len(data)) || s.doc.Messages != 1 {
			t.Errorf("%s recorded as %+v", name, s.doc)
		}
		if err := os.WriteFile(path, append(data, 0xc1, 0xc1), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := loadSample(path); err == nil || !strings.Contains(err.Error(), name+": malformed") {
			t.Errorf("%s with bytes after the value: %v; want an error naming it malformed", name, err)
		}
	}
}

// TestRealDocument verifies a real-world document of more than 100 KB as
// a run with -file does before timing: twitter.json (a Twitter search API
// response, 631,514 bytes), which the module github.com/bytedance/sonic,
// one of serbench's codecs, ships in its testdata.
func TestRealDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("verifies a 600 KB document through several codecs")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command, which locates the module cache, is not on PATH")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/bytedance/sonic").Output()
	if err != nil {
		t.Fatalf("locating github.com/bytedance/sonic: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(out)), "testdata", "twitter.json")
	s, err := loadSample(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.doc.Bytes < 100<<10 || s.label != "twitter.json" {
		t.Fatalf("sample %+v, label %s: want more than 100 KB, labelled twitter.json", s.doc, s.label)
	}
	jsonAny := []string{"json", "jsonv2", "sonic", "goccy-json"}
	codecs := []string{"json", "jsonv2", "sonic", "goccy-json", "msgpack", "cbor", "yaml", "bson", "gob-stream", "go-toml", "xml"}
	c := &runConfig{sample: s, sel: preset.Selection{Codecs: codecs}}
	s.codecs = codecs
	jobs, err := c.jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, job := range jobs {
		if job.Dataset != "twitter.json" || job.Shape != "single" {
			t.Errorf("job %s labelled %s/%s", job.Codec.Name, job.Dataset, job.Shape)
		}
		var err error = &runner.CheckError{Status: results.Skipped, Reason: job.Skip}
		if job.Skip == "" {
			_, err = runner.Prepare(&job)
		}
		var ce *runner.CheckError
		switch name := job.Codec.Name; {
		case name == "go-toml" || name == "xml":
			if !errors.As(err, &ce) || ce.Status != results.Skipped {
				t.Errorf("%s: %v; want it skipped (no null, no maps)", name, err)
			}
		case name == "gob-stream":
			// gob cannot tell the document's empty lists from missing ones.
			if !errors.As(err, &ce) || ce.Status != results.Skipped || !strings.Contains(ce.Reason, "it loses nil-empty, as it declares") {
				t.Errorf("%s: %v; want it skipped for the loss nil-empty", name, err)
			}
		case slices.Contains(jsonAny, name):
			// Its ids are integers above 2^53, kept exact: a JSON codec
			// decoding into any rounds them to float64, as it declares
			// (integer-as-float): skipped with the loss and a rounded
			// id named, not failed.
			if !errors.As(err, &ce) || ce.Status != results.Skipped || !strings.Contains(ce.Reason, "it loses integer-as-float, as it declares") || !strings.Contains(ce.Reason, "505874924095815680") {
				t.Errorf("%s: %v; want it skipped for the loss integer-as-float, naming a rounded id", name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzLoadSample checks that no document crashes the decoder, and that
// every refusal is one line naming the file.
func FuzzLoadSample(f *testing.F) {
	for _, seed := range []string{`{"a": [1, 2.5, null, {"b": "c"}]}`, "[1, 2", "a: 1\nb: [x]\n", "\xa1\x61\x61\x01", "\x81\xa1a\x01", "{}\n{}\n", ""} {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		for _, ext := range []string{".json", ".jsonl", ".yaml", ".cbor", ".msgpack"} {
			path := filepath.Join(dir, "doc"+ext)
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			// The worker's decoding, in this process: what loadSample
			// runs in a worker for every document.
			_, _, _, err := decodeSample(path, sampleFormats[ext])
			if err == nil {
				continue
			}
			var u *UsageError
			if msg := err.Error(); !errors.As(err, &u) || strings.Contains(msg, "\n") || !strings.Contains(msg, "doc"+ext) {
				t.Errorf("%s: refused with %T %q; want one line naming the file", ext, err, msg)
			}
		}
	})
}

// TestSampleMessages checks the messages a -file run decodes: the first
// document alone, never a made-up second one, or the second document
// given after a comma.
func TestSampleMessages(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{"a.json": `{"id": 7, "sku": "dust-12"}`, "b.json": `{"id": 8, "sku": "tea"}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	tests := []struct {
		spec string
		want any // the second message's value; nil: none
	}{
		{a, nil},
		{a + "," + b, &map[string]any{"id": int64(8), "sku": "tea"}},
	}
	for _, tt := range tests {
		c := &runConfig{}
		var stderr strings.Builder
		if err := c.useSample(tt.spec, []string{"json"}, &stderr); err != nil {
			t.Fatal(err)
		}
		jobs, err := c.jobs()
		if err != nil {
			t.Fatal(err)
		}
		switch alt := jobs[0].Alt; {
		case tt.want == nil && alt != nil:
			v, _ := alt()
			t.Errorf("-file %s: a second message %v that no document holds", tt.spec, v)
		case tt.want != nil && alt == nil:
			t.Errorf("-file %s: no second message", tt.spec)
		case tt.want != nil:
			if v, _ := alt(); !reflect.DeepEqual(v, tt.want) {
				t.Errorf("-file %s: second message %v; want %v", tt.spec, v, tt.want)
			}
		}
	}
}
