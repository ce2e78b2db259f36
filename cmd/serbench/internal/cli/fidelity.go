package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/registry"
	"github.com/serbench/serbench/report/matrix"
)

// fidelityCmd runs probes through codecs, each codec in child processes,
// prints the matrix and writes fidelity.csv and fidelity.json into -o; a
// report.html beside a run's results there is rendered again with the
// matrix.
func fidelityCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	b := newFlags("fidelity", "serbench fidelity [-codecs LIST] [-probes LIST] [-o DIR] [-v]",
		"Runs every probe (a small typed value) through every codec and prints what comes back:\n"+
			"exact, equal after a named normalisation, changed, refused at encode or decode,\n"+
			"unsupported (declared) or crashed. Each codec runs in child processes.", stderr)
	fs := b.fs
	var (
		sf      studyFlags
		probes  = fs.String("probes", "", "comma-separated probes (default: all; see serbench list probes)")
		verbose = fs.Bool("v", false, "print every cell that is not exact, with its diff or message")
	)
	b.study(&sf, "fidelity.csv and fidelity.json", 2, fidelity.DefaultTimeout, "one probe")
	if err := b.parse(args); err != nil {
		return err
	}
	codecs, out, parallel, timeout := sf.codecs, sf.out, sf.parallel, sf.timeout
	if fs.NArg() > 0 {
		return usagef("fidelity takes no arguments, got %q; use -codecs and -probes", fs.Args())
	}
	infos := registry.RoundTrippers()
	if codecs != "" {
		names := splitList(codecs)
		if err := registry.Check(names); err != nil {
			return &UsageError{Msg: err.Error()}
		}
		infos = nil
		for _, n := range names {
			c, _ := registry.Lookup(n)
			infos = append(infos, c)
		}
	}
	ps := fidelity.Probes
	if *probes != "" {
		var err error
		if ps, err = fidelity.Lookup(splitList(*probes)); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	d, err := openOut(out)
	if err != nil {
		return err
	}
	defer d.Close()
	r := &fidelity.Runner{Timeout: timeout, Parallel: parallel, Progress: func(c string, done, total int) {
		fmt.Fprintf(stderr, "fidelity: %d/%d codecs (%s)\n", done, total, c)
	}}
	start := time.Now()
	m, err := r.Run(ctx, infos, ps)
	if err != nil {
		return &RunError{Msg: fmt.Sprintf("fidelity: %v; nothing written", err)}
	}
	fmt.Fprintf(stderr, "fidelity: %d codecs by %d probes in %v\n", len(infos), len(ps), time.Since(start).Round(time.Second))
	if err := writeMatrix(d.Path(), m, stderr); err != nil {
		return &RunError{Msg: fmt.Sprintf("fidelity: %v", err)}
	}
	return matrix.Write(stdout, m, *verbose)
}

// probeTable lists the probes for serbench list probes.
func probeTable() listing {
	t := listing{header: []string{"PROBE", "GROUP", "DESCRIPTION"}}
	for _, p := range fidelity.Probes {
		r := row{cells: []string{p.Name, p.Group, p.Doc}}
		if p.Shows != "" {
			r.notes = append(r.notes, "shows: "+string(p.Shows))
		}
		if p.Decides != 0 {
			r.notes = append(r.notes, "decides: "+codec.Features(p.Decides).String())
		}
		t.rows = append(t.rows, r)
	}
	return t
}
