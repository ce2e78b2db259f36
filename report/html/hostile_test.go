package html_test

import (
	"bytes"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/serbench/serbench/report/html"
	"github.com/serbench/serbench/report/internal/fixture"
)

// TestHostileSection: with a hostile matrix the page gets its section,
// one row per codec and a cell per class coloured by outcome, and the
// reproducers' hex dumps; without one, no section.
func TestHostileSection(t *testing.T) {
	run := fixture.Run()
	var plain bytes.Buffer
	if err := html.Write(&plain, run); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `id="hostile"`) {
		t.Error("a run without a hostile matrix has a hostile section")
	}
	run.Hostile = fixture.Hostile()
	var buf bytes.Buffer
	if err := html.Write(&buf, run); err != nil {
		t.Fatal(err)
	}
	doc, err := nethtml.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	classes := map[string]int{}
	var pres []string
	walk(doc, func(n *nethtml.Node) {
		if n.Type != nethtml.ElementNode {
			return
		}
		for _, a := range n.Attr {
			if a.Key == "class" && n.Data == "td" && strings.HasPrefix(a.Val, "hz ") {
				classes[strings.TrimPrefix(a.Val, "hz ")]++
			}
		}
		if n.Data == "pre" && n.FirstChild != nil {
			pres = append(pres, n.FirstChild.Data)
		}
	})
	want := map[string]int{"hz-clean": 2, "hz-na": 1, "hz-changed": 1, "hz-crash": 1, "hz-hang": 1}
	for k, n := range want {
		if classes[k] != n {
			t.Errorf("%d cells of class %s, want %d (all: %v)", classes[k], k, n, classes)
		}
	}
	if len(pres) != 2 || !strings.Contains(strings.Join(pres, ""), "dd ff ff ff ff 83") {
		t.Errorf("want the two reproducers' hex dumps, got %q", pres)
	}
	for _, s := range []string{"safe for untrusted input?", ">no<", ">yes<"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("the section lacks %q", s)
		}
	}
}
