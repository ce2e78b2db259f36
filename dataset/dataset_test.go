package dataset_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/dataset"
)

// TestBuilds (distinct_test.go) checks that builds are deterministic, that
// slices hold SliceLen elements, and that no element is zero or repeated.

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

// TestFirstElements: element 0 of each generator holds the values a seed
// gives it, however the later elements vary.
func TestFirstElements(t *testing.T) {
	if n := dataset.NewInt64(0); n != 23422 {
		t.Errorf("NewInt64(0) = %d, want seed 004's 23422", n)
	}
	a := dataset.NewA(0)
	if *a.Barr[0] != (dataset.B{I2: 2, Str2: "def"}) || *a.Bmap1["33"] != (dataset.B{I2: 222, Str2: "defdefdef"}) || a.Bmap2["aa"] != (dataset.B{I2: 3, Str2: "ghi"}) || a.I1 != 1 {
		t.Errorf("NewA(0) differs from seed 003: %+v", a)
	}
	if u := dataset.NewUser(0); u.Name != "John Doe" || u.ID != 1 {
		t.Errorf("NewUser(0) = %+v, want seed 001's John Doe", u)
	}
	b := dataset.NewBig(0)
	if b.ID != 1 || b.Tiny.ID != 1 || b.Medium.ID != 1 || b.Medium.Tiny.ID != 1 || b.MediumPtr.ID != 1 || *b.Country != "Ukraine" || b.Age != 26 {
		t.Errorf("NewBig(0) = %+v", b)
	}
	h := dataset.NewHuge(0)
	for j, got := range h.BigSlice {
		if !reflect.DeepEqual(got, dataset.NewBig(j)) {
			t.Errorf("NewHuge(0).BigSlice[%d] is not NewBig(%d)", j, j)
		}
	}
	if e := dataset.NewEdge(0); !e.Zoned.Equal(dataset.Base) || e.Zoned.Location() != dataset.Zone {
		t.Errorf("NewEdge(0).Zoned = %v, want Base in Zone", e.Zoned)
	}
	if m := dataset.NewEdgeMaps(0); !reflect.DeepEqual(m.Full, map[string]int32{"a": 1, "b": 2}) {
		t.Errorf("NewEdgeMaps(0).Full = %v", m.Full)
	}
}

func TestLookup(t *testing.T) {
	if _, err := dataset.Lookup("tinyy"); err == nil || !strings.Contains(err.Error(), `unknown dataset "tinyy" (did you mean tiny?); run 'serbench list datasets' to see all`) {
		t.Errorf("Lookup = %v", err)
	}
	d, _ := dataset.Lookup("int64")
	if _, err := d.Value(dataset.Slice); err == nil || !strings.Contains(err.Error(), "dataset int64 has no shape \"slice\"; it has: single") {
		t.Errorf("Value of a missing shape = %v", err)
	}
}
