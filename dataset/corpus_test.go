package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestCorpora checks each corpus's document against its declared size and
// hash, and that its type holds the whole document: encoding/json writes
// the value back with every member of the document, equal, and adds only
// members the document leaves out, as zero values.
func TestCorpora(t *testing.T) {
	if _, err := os.Stat("testdata/corpus/LICENSE"); err != nil {
		t.Errorf("the corpora's licence: %v", err)
	}
	n := 0
	for _, d := range All {
		if d.Corpus == nil {
			continue
		}
		n++
		t.Run(d.Name, func(t *testing.T) {
			t.Parallel()
			c := d.Corpus
			b, err := c.JSON()
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			if len(b) != c.Size || hex.EncodeToString(sum[:]) != c.SHA256 {
				t.Errorf("%s is %d bytes, sha256 %x; the registry says %d bytes, %s", c.File, len(b), sum, c.Size, c.SHA256)
			}
			if d.Shapes()[0] != Single || len(d.Shapes()) != 1 {
				t.Errorf("shapes %v, want single alone", d.Shapes())
			}
			v, err := d.Value(Single)
			if err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if b, err = c.Document(); err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(again, &got); err != nil {
				t.Fatal(err)
			}
			if err := holds(got, want, "$"); err != nil {
				t.Errorf("the type loses part of the document: %v", err)
			}
		})
	}
	if n != 7 {
		t.Errorf("%d corpus datasets, want the seven", n)
	}
	esc, _ := Lookup("string_escaped")
	uni, _ := Lookup("string_unicode")
	e, _ := esc.Value(Single)
	u, _ := uni.Value(Single)
	if es, us := e.(*Strings), u.(*Strings); es.Arabic == us.Arabic || !strings.HasPrefix(es.Arabic, `\u06`) || strings.Contains(us.Arabic, `\`) {
		t.Errorf("string_escaped's strings must be the document's literals (%.20q), string_unicode's its characters (%.20q)", es.Arabic, us.Arabic)
	}
}

// holds reports where got, a document as a generic value, differs from
// want other than by members want lacks that hold a zero value.
func holds(got, want any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %T, want an object", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s is missing", path, k)
			}
			if err := holds(gv, wv, path+"."+k); err != nil {
				return err
			}
		}
		for k, gv := range g {
			if _, ok := w[k]; !ok && !zeroJSON(gv) {
				return fmt.Errorf("%s.%s = %v, which the document does not have", path, k, gv)
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: %v, want %d elements", path, got, len(w))
		}
		for i := range w {
			if err := holds(g[i], w[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s = %v, want %v", path, got, want)
	}
	return nil
}

// zeroJSON reports whether v is null, false, 0, "" or an empty or
// all-zero object, or an empty array.
func zeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		for _, e := range v {
			if !zeroJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}

func TestRotateString(t *testing.T) {
	for _, tc := range []struct {
		s    string
		k    int
		want string
	}{
		{"abc", 0, "abc"}, {"abc", 1, "bca"}, {"abc", 4, "bca"}, {"", 3, ""}, {"é日本", 1, "日本é"}, {"x", 5, "x"},
	} {
		if got := rotateString(tc.s, tc.k); got != tc.want {
			t.Errorf("rotateString(%q, %d) = %q, want %q", tc.s, tc.k, got, tc.want)
		}
	}
}
