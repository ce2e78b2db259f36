// Package hostile renders a hostile-input matrix (hostile.Matrix): a
// text matrix of codecs by classes for the terminal, and CSV.
package hostile

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/serbench/serbench/hostile"
)

// Write writes the matrix as text: one row per codec, one column per
// class (numbered, named in a legend below), then the codes and the
// versions tried.
func Write(w io.Writer, m *hostile.Matrix) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "codec\t")
	for i := range m.Classes {
		fmt.Fprintf(tw, "%d\t", i+1)
	}
	fmt.Fprintln(tw)
	for _, co := range m.Codecs {
		fmt.Fprintf(tw, "%s\t", co.Name)
		for _, cl := range m.Classes {
			fmt.Fprintf(tw, "%s\t", code(m, co.Name, cl.Name))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nclasses:")
	for i, cl := range m.Classes {
		fmt.Fprintf(w, "%3d %-13s %s\n", i+1, cl.Name, cl.Doc)
	}
	fmt.Fprintln(w, "\ncodes: . clean error, ok valid input decoded, chg accepted as another value, acc garbage accepted,")
	fmt.Fprintln(w, "       PANIC recovered panic, MEM memory blow-up, HANG killed after the timeout,")
	fmt.Fprintln(w, "       STACK / OOM / FATAL a fatal stack overflow, out of memory, other fatal error; - does not apply")
	fmt.Fprintln(w, "\nversions:")
	for _, co := range m.Codecs {
		fmt.Fprintf(w, "  %-22s %s %s\n", co.Name, co.Label, co.Version)
	}
	var bad []hostile.Cell
	for _, c := range m.Cells {
		if c.Outcome.Unsafe() {
			bad = append(bad, c)
		}
	}
	if len(bad) > 0 {
		fmt.Fprintln(w, "\nfatal, hung and memory cells (smallest reproducer):")
		for _, c := range bad {
			fmt.Fprintf(w, "  %s %s: %s, %d-byte input%s\n", c.Codec, c.Class, what(c), c.Size, file(c))
		}
	}
	fmt.Fprintf(w, "\n%s; per-input timeout %s", m.Go, m.Timeout)
	if m.Quick {
		fmt.Fprint(w, "; -quick")
	}
	if m.Elapsed != "" {
		fmt.Fprintf(w, "; %s", m.Elapsed)
	}
	fmt.Fprintln(w)
	return nil
}

// what says what a cell's worst input did.
func what(c hostile.Cell) string {
	switch c.Outcome {
	case hostile.Crash:
		return "fatal " + c.Crash
	case hostile.Hang:
		return "hung"
	}
	return c.Detail
}

func file(c hostile.Cell) string {
	if c.File == "" {
		return ""
	}
	return " (" + c.File + ")"
}

func code(m *hostile.Matrix, codec, class string) string {
	if c := m.Cell(codec, class); c != nil {
		return c.Code()
	}
	return "-"
}

// Header is the CSV header row.
var Header = []string{"codec", "version", "class", "outcome", "crash", "seed", "inputs", "reproducer_bytes", "reproducer", "max_alloc_bytes", "peak_rss_bytes", "detail"}

// WriteCSV writes the matrix as CSV, one row per cell.
func WriteCSV(w io.Writer, m *hostile.Matrix) error {
	versions := map[string]string{}
	for _, c := range m.Codecs {
		versions[c.Name] = c.Version
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(Header); err != nil {
		return err
	}
	for _, c := range m.Cells {
		detail, _, _ := strings.Cut(c.Detail, "\n")
		row := []string{c.Codec, versions[c.Codec], c.Class, string(c.Outcome), c.Crash, c.Seed, strconv.Itoa(c.Inputs),
			strconv.Itoa(c.Size), c.File, strconv.FormatUint(c.Alloc, 10), strconv.FormatUint(c.PeakRSS, 10), detail}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
