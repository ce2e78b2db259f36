package claims_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/serbench/serbench/claims"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/registry"
)

// TestQuotes checks every claim's quote is the article's text, verbatim,
// against the copies of the seeds in testdata/seeds.
func TestQuotes(t *testing.T) {
	seeds := map[string]string{}
	files, err := filepath.Glob("testdata/seeds/*.txt")
	if err != nil || len(files) != 5 {
		t.Fatalf("want the five seeds in testdata/seeds, found %d (%v)", len(files), err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds[filepath.Base(f)[:3]] = string(b)
	}
	for _, c := range claims.All {
		text, ok := seeds[c.Seed]
		if !ok {
			t.Errorf("%s: no seed %q", c.ID, c.Seed)
			continue
		}
		if c.Quote == "" || !strings.Contains(text, c.Quote) {
			t.Errorf("%s: quote %q is not in seed %s", c.ID, c.Quote, c.Seed)
		}
	}
}

// TestWellFormed checks every claim names registered codecs and datasets,
// has an experiment its rule can read, and a unique ID; and that there
// are at least 25 claims, from every article.
func TestWellFormed(t *testing.T) {
	if len(claims.All) < 25 {
		t.Errorf("%d claims, want at least 25", len(claims.All))
	}
	ids := map[string]bool{}
	bySeed := map[string]int{}
	for _, c := range claims.All {
		bySeed[c.Seed]++
		if ids[c.ID] {
			t.Errorf("%s: ID used twice", c.ID)
		}
		ids[c.ID] = true
		if !strings.HasPrefix(c.ID, "s"+c.Seed+"-") {
			t.Errorf("%s: ID does not start with s%s-", c.ID, c.Seed)
		}
		if c.Rule == claims.None {
			if c.Untestable == "" {
				t.Errorf("%s: cannot be tested, but says not why", c.ID)
			}
			continue
		}
		if err := registry.Check(c.Test.Codecs); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
		if err := dataset.Check(c.Test.Datasets); err != nil {
			t.Errorf("%s: %v", c.ID, err)
		}
		if len(c.Cases()) == 0 || len(c.Ops()) == 0 {
			t.Errorf("%s: the experiment measures nothing", c.ID)
		}
		need := map[claims.Rule]int{claims.Better: 2, claims.Best: 2, claims.Worst: 2, claims.LighterData: 1, claims.Refuses: 1, claims.RoundTrips: 1}
		if n, ok := need[c.Rule]; !ok || len(c.Test.Codecs) < n {
			t.Errorf("%s: rule %q with %d codecs", c.ID, c.Rule, len(c.Test.Codecs))
		}
		if c.Rule == claims.LighterData && len(c.Test.Datasets) != 2 {
			t.Errorf("%s: lighter-data compares two datasets, has %d", c.ID, len(c.Test.Datasets))
		}
	}
	for _, s := range []string{"000", "001", "002", "003", "004"} {
		if bySeed[s] == 0 {
			t.Errorf("no claim from seed %s", s)
		}
	}
}

func TestLookup(t *testing.T) {
	got, err := claims.Lookup([]string{"s004-bytes-100x", "s000-xml-slices"})
	if err != nil || len(got) != 2 || got[0].ID != "s004-bytes-100x" {
		t.Errorf("Lookup = %v, %v", got, err)
	}
	if _, err := claims.Lookup([]string{"s004-nope"}); err == nil || !strings.Contains(err.Error(), `unknown claim "s004-nope"`) {
		t.Errorf("Lookup of an unknown ID: %v", err)
	}
}
