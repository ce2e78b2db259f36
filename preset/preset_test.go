package preset_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestPresets checks that every preset names only registered codecs,
// datasets, shapes and ops, that each name it lists matches some job, and
// that every job it expands to is one it asked for.
func TestPresets(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range preset.All {
		t.Run(p.Name, func(t *testing.T) {
			if seen[p.Name] {
				t.Errorf("preset %q listed twice", p.Name)
			}
			seen[p.Name] = true
			if p.Doc == "" {
				t.Error("no Doc")
			}
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			jobs, err := p.Jobs()
			if err != nil {
				t.Fatal(err)
			}
			codecs, datasets, shapes := map[string]bool{}, map[string]bool{}, map[string]bool{}
			for _, j := range jobs {
				codecs[j.Codec.Name], datasets[j.Dataset], shapes[j.Shape] = true, true, true
				if !asked(p.Codecs, j.Codec.Name) || !asked(p.Datasets, j.Dataset) || !asked(p.Shapes, dataset.Shape(j.Shape)) {
					t.Errorf("job %s/%s/%s was not asked for", j.Codec.Name, j.Dataset, j.Shape)
				}
				wantOps := p.Ops
				if len(wantOps) == 0 {
					wantOps = results.Ops
				}
				if !slices.Equal(j.Ops, wantOps) {
					t.Errorf("job %s/%s/%s has ops %v, want %v", j.Codec.Name, j.Dataset, j.Shape, j.Ops, wantOps)
				}
			}
			for _, name := range p.Codecs {
				if !codecs[name] {
					t.Errorf("codec %s matches no job", name)
				}
			}
			for _, name := range p.Datasets {
				if !datasets[name] {
					t.Errorf("dataset %s matches no job", name)
				}
			}
			for _, s := range p.Shapes {
				if !shapes[string(s)] {
					t.Errorf("shape %s matches no job", s)
				}
			}
		})
	}
}

// asked reports whether a selection's list asks for v: an empty list asks
// for everything.
func asked[T comparable](list []T, v T) bool { return len(list) == 0 || slices.Contains(list, v) }

// TestQuick checks the default preset's whole-run time and budget.
func TestQuick(t *testing.T) {
	if preset.All[0].Name != "quick" {
		t.Errorf("the first (default) preset is %q, want quick", preset.All[0].Name)
	}
	p, err := preset.Lookup("quick")
	if err != nil {
		t.Fatal(err)
	}
	if p.Time <= 0 || p.Budget <= 0 || p.SampleTime <= 0 {
		t.Errorf("quick: Time %v, Budget %v, SampleTime %v; want all set", p.Time, p.Budget, p.SampleTime)
	}
	if p.Budget > p.Time {
		t.Errorf("quick: Budget %v is more than the whole run's Time %v", p.Budget, p.Time)
	}
	opts := runner.Options{Total: p.Time, Budget: p.Budget, SampleTime: p.SampleTime}
	if err := opts.Validate(); err != nil {
		t.Errorf("quick's settings are not valid runner options: %v", err)
	}
}

func TestLookup(t *testing.T) {
	var names []string
	for _, p := range preset.All {
		names = append(names, p.Name)
	}
	for _, name := range names {
		if p, err := preset.Lookup(name); err != nil || p.Name != name {
			t.Errorf("Lookup(%q) = %q, %v", name, p.Name, err)
		}
	}
	_, err := preset.Lookup("qiuck")
	want := `unknown preset "qiuck" (did you mean quick?); known: ` + strings.Join(names, ", ")
	if err == nil || err.Error() != want {
		t.Errorf("Lookup of an unknown name = %v, want %q", err, want)
	}
}

// TestJob checks that Job rebuilds from its names each job that Jobs
// makes, as a worker process does, and refuses names it does not know.
func TestJob(t *testing.T) {
	for _, name := range []string{"full", "gob-proto"} {
		p, err := preset.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := p.Jobs()
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range jobs {
			got, err := preset.Job(want.Codec.Name, want.Dataset, want.Shape, want.Ops)
			if err != nil {
				t.Errorf("Job(%s, %s, %s): %v", want.Codec.Name, want.Dataset, want.Shape, err)
				continue
			}
			if got.Codec.Name != want.Codec.Name || got.Dataset != want.Dataset || got.Shape != want.Shape ||
				got.Items != want.Items || !slices.Equal(got.Ops, want.Ops) {
				t.Errorf("Job rebuilt %s/%s/%s (%d items, ops %v), want %s/%s/%s (%d items, ops %v)",
					got.Codec.Name, got.Dataset, got.Shape, got.Items, got.Ops,
					want.Codec.Name, want.Dataset, want.Shape, want.Items, want.Ops)
			}
		}
	}
	// The values, for the small datasets: building the large ones takes
	// seconds and tells nothing more.
	p, _ := preset.Lookup("json-vs-gob")
	jobs, err := p.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range jobs {
		got, err := preset.Job(want.Codec.Name, want.Dataset, want.Shape, want.Ops)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct {
			name      string
			got, want func() (any, error)
		}{{"Value", got.Value, want.Value}, {"Alt", got.Alt, want.Alt}} {
			g, err1 := f.got()
			w, err2 := f.want()
			if err1 != nil || err2 != nil || !reflect.DeepEqual(g, w) {
				t.Errorf("%s/%s/%s: the rebuilt job's %s differs (errors %v, %v)", want.Codec.Name, want.Dataset, want.Shape, f.name, err1, err2)
			}
		}
	}
	for _, bad := range []struct{ codec, dataset, shape, want string }{
		{"jsn", "tiny", "single", `unknown codec "jsn"`},
		{"json", "tinny", "single", `unknown dataset "tinny"`},
		{"json", "tiny", "double", `unknown shape "double"`},
		{"json", "int64", "slice", "dataset int64 has no shape slice"},
	} {
		_, err := preset.Job(bad.codec, bad.dataset, bad.shape, results.Ops)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Job(%s, %s, %s) = %v, want an error with %q", bad.codec, bad.dataset, bad.shape, err, bad.want)
		}
	}
}

// TestReaderJobs checks that an in-place reader (codec.Info.ReadsOnly)
// gets only the ops it takes part in, and no job where it takes part in
// none, and that jobs carry the dataset's paths for the get ops.
func TestReaderJobs(t *testing.T) {
	sel := preset.Selection{Codecs: []string{"json", "gjson"}, Datasets: []string{"big"}, Shapes: []dataset.Shape{dataset.Single},
		Ops: []results.Op{results.Encode, results.Get1}}
	jobs, err := sel.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]results.Op{}
	for _, j := range jobs {
		got[j.Codec.Name] = j.Ops
		if len(j.Reads) == 0 {
			t.Errorf("the job of %s carries no paths to read", j.Codec.Name)
		}
	}
	want := map[string][]results.Op{"json": {results.Encode, results.Get1}, "gjson": {results.Get1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ops by codec %v, want %v", got, want)
	}
	sel.Codecs, sel.Ops = []string{"gjson"}, nil
	if _, err := sel.Jobs(); err == nil {
		t.Errorf("a reader with the default ops made jobs, want none")
	}
}

// TestCorpusPreset checks that the corpus preset measures the seven
// corpora with the JSON and reflection codecs, and no schema codec.
func TestCorpusPreset(t *testing.T) {
	p, err := preset.Lookup("corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Datasets) != 7 {
		t.Errorf("datasets %v, want the seven corpora", p.Datasets)
	}
	for _, name := range []string{"json", "sonic", "jsonv2", "gob", "cbor", "yaml"} {
		if !slices.Contains(p.Codecs, name) {
			t.Errorf("codecs %v lack %s", p.Codecs, name)
		}
	}
	for _, name := range []string{"proto", "msgp", "binary", "byteorder"} {
		if slices.Contains(p.Codecs, name) {
			t.Errorf("codecs %v hold %s, which cannot hold a corpus", p.Codecs, name)
		}
	}
}
