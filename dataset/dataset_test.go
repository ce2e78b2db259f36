package dataset_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/dataset"
)

// TestDeterministic: every build of a dataset is equal, and slices hold
// exactly SliceLen elements, none of them zero (seed 000 padded its slices
// with n zero values).
func TestDeterministic(t *testing.T) {
	for _, d := range dataset.All {
		for _, s := range d.Shapes() {
			if d.IsXL(s) {
				continue
			}
			a, err := d.Value(s)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := d.Value(s)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s/%s: two builds differ", d.Name, s)
			}
			if s == dataset.Single {
				continue
			}
			v := reflect.ValueOf(a).Elem()
			if v.Len() != d.SliceLen {
				t.Errorf("%s/%s: %d elements, want %d", d.Name, s, v.Len(), d.SliceLen)
			}
			for i := range v.Len() {
				if v.Index(i).IsZero() {
					t.Errorf("%s/%s: element %d is a zero value", d.Name, s, i)
				}
			}
		}
	}
}

func TestSeedFacts(t *testing.T) {
	h := dataset.NewHuge(0)
	if n := len(h.BigSlice) + len(h.BigPtrSlice) + len(h.BiggerSlice) + len(h.TheBiggestSlice); n != 1380 {
		t.Errorf("Huge holds %d Bigs, want 1,380", n)
	}
	if n := len(dataset.NewComplexMap(0)); n != 50 {
		t.Errorf("ComplexMap has %d keys, want 50", n)
	}
	cd := dataset.NewComplexData(0)
	if len(cd.Users) != 100 || cd.Users[99].ID == 0 || len(cd.Metadata) == 0 {
		t.Errorf("ComplexData must carry 100 filled users and a filled map: %d users, last ID %d, %d keys", len(cd.Users), cd.Users[99].ID, len(cd.Metadata))
	}
	if a := dataset.NewA(0); a.I6 != 123423 || a.B1 != nil || len(a.Barr) != 3 || a.Bmap2["cc"].Str2 != "ghighighi" {
		t.Errorf("game message differs from seed 003: %+v", a)
	}
	if got := dataset.NewBig(0).DeletedAt.Sub(dataset.NewBig(0).CreatedAt); got.Hours() != 48 {
		t.Errorf("Big spans %v from created to deleted, want two days", got)
	}
}

func TestLookup(t *testing.T) {
	if _, err := dataset.Lookup("tinyy"); err == nil || !strings.Contains(err.Error(), `unknown dataset "tinyy"; known: tiny, medium`) {
		t.Errorf("Lookup = %v", err)
	}
	d, _ := dataset.Lookup("int64")
	if _, err := d.Value(dataset.Slice); err == nil || !strings.Contains(err.Error(), "dataset int64 has no shape \"slice\"; it has: single") {
		t.Errorf("Value of a missing shape = %v", err)
	}
}
