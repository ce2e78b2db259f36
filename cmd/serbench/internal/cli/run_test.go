package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/journal"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// TestFlagMerging checks how the run's configuration is built: the
// preset's selection and options, each overridden by the flags given, the
// whole-run time kept, set or dropped, and -file in place of the
// datasets.
func TestFlagMerging(t *testing.T) {
	quick, err := preset.Lookup("quick")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := preset.Lookup("json-vs-gob")
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "doc.json")
	writeFile(t, doc, []byte(`{"a": [1, 2], "b": "x"}`))
	defaults := runner.Options{}.WithDefaults()
	for _, tc := range []struct {
		name  string
		args  []string
		check func(t *testing.T, c *runConfig)
	}{
		{"no flags: the quick preset", nil, func(t *testing.T, c *runConfig) {
			same(t, "codecs", c.sel.Codecs, quick.Codecs)
			same(t, "datasets", c.sel.Datasets, quick.Datasets)
			equal(t, "budget", c.opts.Budget, quick.Budget)
			equal(t, "sample time", c.opts.SampleTime, quick.SampleTime)
			equal(t, "total", c.opts.Total, quick.Time)
			equal(t, "target", c.opts.Target, defaults.Target)
			equal(t, "label", c.label, "quick")
			equal(t, "out", c.out, "serbench-out")
			equal(t, "pin", c.opts.PinCPU, 0)
			equal(t, "in process", c.inproc, false)
		}},
		{"another preset", []string{"-preset", "json-vs-gob"}, func(t *testing.T, c *runConfig) {
			same(t, "codecs", c.sel.Codecs, seed.Codecs)
			same(t, "datasets", c.sel.Datasets, seed.Datasets)
			equal(t, "label", c.label, "json-vs-gob")
		}},
		{"lists override the preset's", []string{"-codecs", "json, gob", "-datasets", "tiny", "-shapes", "slice", "-ops", "decode", "-xl"}, func(t *testing.T, c *runConfig) {
			same(t, "codecs", c.sel.Codecs, []string{"json", "gob"})
			same(t, "datasets", c.sel.Datasets, []string{"tiny"})
			same(t, "shapes", c.sel.Shapes, []dataset.Shape{dataset.Slice})
			same(t, "ops", c.sel.Ops, []results.Op{results.Decode})
			equal(t, "xl", c.sel.XL, true)
			if !strings.HasPrefix(c.label, "quick (custom") {
				t.Errorf("label %q, want the preset marked custom", c.label)
			}
		}},
		{"-budget alone drops the whole-run time", []string{"-budget", "50ms"}, func(t *testing.T, c *runConfig) {
			equal(t, "budget", c.opts.Budget, 50*time.Millisecond)
			equal(t, "total", c.opts.Total, time.Duration(0))
		}},
		{"-time sets it", []string{"-time", "10s"}, func(t *testing.T, c *runConfig) {
			equal(t, "budget", c.opts.Budget, quick.Budget)
			equal(t, "total", c.opts.Total, 10*time.Second)
		}},
		{"-time wins over -budget", []string{"-budget", "50ms", "-time", "20s"}, func(t *testing.T, c *runConfig) {
			equal(t, "budget", c.opts.Budget, 50*time.Millisecond)
			equal(t, "total", c.opts.Total, 20*time.Second)
		}},
		{"-time 0: no whole-run time", []string{"-time", "0"}, func(t *testing.T, c *runConfig) {
			equal(t, "total", c.opts.Total, time.Duration(0))
		}},
		{"the runner's options", []string{"-target", "0.05", "-sample", "20ms", "-batch", "100µs", "-max-samples", "7", "-nogc", "-gate", "-timeout", "5s", "-q", "-o", "dir"}, func(t *testing.T, c *runConfig) {
			equal(t, "target", c.opts.Target, 0.05)
			equal(t, "sample time", c.opts.SampleTime, 20*time.Millisecond)
			equal(t, "batch", c.opts.BatchTime, 100*time.Microsecond)
			equal(t, "max samples", c.opts.MaxSamples, 7)
			equal(t, "nogc", c.opts.NoGC, true)
			equal(t, "gate", c.opts.Gate, true)
			equal(t, "timeout", c.timeout, 5*time.Second)
			equal(t, "quiet", c.quiet, true)
			equal(t, "out", c.out, "dir")
		}},
		{"-in-process", []string{"-in-process"}, func(t *testing.T, c *runConfig) {
			equal(t, "in process", c.inproc, true)
		}},
		{"-pin counts from 0, the runner from 1", []string{"-pin", "0"}, func(t *testing.T, c *runConfig) {
			equal(t, "pin", c.opts.PinCPU, 1)
		}},
		{"-file measures a document in this process", []string{"-file", doc, "-codecs", "json"}, func(t *testing.T, c *runConfig) {
			if c.sample == nil {
				t.Fatal("no sample")
			}
			equal(t, "in process", c.inproc, true)
			same(t, "sample codecs", c.sample.codecs, []string{"json"})
			if d := c.sample.record(); d == nil {
				t.Error("the sample has no record for the results")
			}
			jobs, err := c.jobs()
			if err != nil || len(jobs) != 1 || jobs[0].Codec.Name != "json" {
				t.Errorf("jobs of the sample: %d, %v; want json's alone", len(jobs), err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseRun(tc.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			equal(t, "args", len(c.args), len(tc.args))
			for i := 0; i < len(tc.args); i++ {
				if name, ok := strings.CutPrefix(tc.args[i], "-"); ok && !c.set[name] {
					t.Errorf("flag -%s given, not recorded as set (%v)", name, c.set)
				}
			}
			tc.check(t, c)
		})
	}
}

func same[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s %v, want %v", what, got, want)
	}
}

func equal[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s %v, want %v", what, got, want)
	}
}

// TestResumeConfig checks that -resume takes the command line its
// journal recorded, with the quietness of the new one, and the results it
// holds.
func TestResumeConfig(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	work := filepath.Join(out, "partial")
	mkdir(t, work)
	args := []string{"-codecs", "json", "-datasets", "tiny", "-budget", "20ms", "-o", out}
	w, err := journal.Create(filepath.Join(work, journal.Name), journal.Header{Args: args, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := results.Result{Op: results.Encode, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK}
	if err := w.Add(r); err != nil {
		t.Fatal(err)
	}
	w.Close()

	c, prior, err := runConfigOf([]string{"-resume", out, "-q"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	same(t, "codecs", c.sel.Codecs, []string{"json"})
	equal(t, "budget", c.opts.Budget, 20*time.Millisecond)
	equal(t, "quiet", c.quiet, true)
	equal(t, "resume", c.resume, out)
	equal(t, "prior results", len(prior), 1)

	p, err := c.plan(prior)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "work", p.work, work)
	if _, err := os.Stat(filepath.Join(work, journal.Name)); err != nil {
		t.Errorf("planning a resumed run touched its journal: %v", err)
	}
	p.dir.Close()

	// A new run into the same directory refuses to overwrite it.
	c, _, err = runConfigOf([]string{"-codecs", "json", "-o", out}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.plan(nil)
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "holds an unfinished run; continue it with: "+Self+" run -resume "+out) {
		t.Errorf("a new run over an unfinished one: %v; want a usage error naming -resume", err)
	}
}

// TestResumeWhereNamed checks that -resume DIR continues the run in DIR,
// never in the directory its journal recorded: resuming a copy leaves the
// original as it was, and resuming a moved directory creates nothing at
// the old path.
func TestResumeWhereNamed(t *testing.T) {
	tmp := t.TempDir()
	orig := filepath.Join(tmp, "orig")
	args := []string{"-codecs", "json", "-datasets", "tiny", "-budget", "20ms", "-o", orig}
	mkdir(t, filepath.Join(orig, "partial"))
	w, err := journal.Create(filepath.Join(orig, "partial", journal.Name), journal.Header{Args: args, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	w.Add(results.Result{Op: results.Encode, Codec: "json", Dataset: "tiny", Shape: "single", Status: results.OK})
	w.Close()
	data, err := os.ReadFile(filepath.Join(orig, "partial", journal.Name))
	if err != nil {
		t.Fatal(err)
	}
	for _, dest := range []string{"copy", "moved"} {
		dir := filepath.Join(tmp, dest)
		mkdir(t, filepath.Join(dir, "partial"))
		writeFile(t, filepath.Join(dir, "partial", journal.Name), data)
		if dest == "moved" {
			if err := os.RemoveAll(orig); err != nil {
				t.Fatal(err)
			}
		}
		c, _, err := runConfigOf([]string{"-resume", dir, "-q"}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, dest+": out", c.out, dir)
		p, err := c.plan(nil)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, dest+": work", p.work, filepath.Join(dir, "partial"))
		equal(t, dest+": output directory", p.dir.Path(), dir)
		p.dir.Close()
		switch _, err := os.Stat(orig); {
		case dest == "copy" && err != nil:
			t.Errorf("resuming a copy: the original: %v", err)
		case dest == "moved" && !os.IsNotExist(err):
			t.Errorf("resuming a moved directory created its old path: %v", err)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(tmp, "copy", "partial", journal.Name)); string(got) != string(data) {
		t.Error("planning a resumed run touched its journal")
	}
}

// TestPlanErrors checks that a selection the registries refuse is a
// usage error from planning, before any directory is made.
func TestPlanErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	c, err := parseRun([]string{"-codecs", "jsn", "-o", out}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.plan(nil)
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), `unknown codec "jsn"`) {
		t.Errorf("plan of -codecs jsn: %v; want a usage error naming it", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused plan made its output directory: %v", err)
	}
}
