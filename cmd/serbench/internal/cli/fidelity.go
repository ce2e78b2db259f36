package cli

import (
	"context"
	"io"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
	"github.com/serbench/serbench/study"
)

// fidelityCmd runs probes through codecs, each codec in child processes,
// prints the matrix and writes fidelity.csv and fidelity.json into -o; a
// report.html beside a run's results there is rendered again with the
// matrix.
func fidelityCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sc := &studyCommand{
		spec:  func() (*study.Study, error) { return fidelity.Spec(), nil },
		usage: "serbench fidelity [-codecs LIST] [-probes LIST] [-o DIR] [-v] [-resume DIR]",
		about: "Runs every probe (a small typed value) through every codec and prints what comes back:\n" +
			"exact, equal after a named normalisation, changed, refused at encode or decode,\n" +
			"unsupported (declared) or crashed. Each codec runs in child processes.",
		parallel: 2,
	}
	return sc.run(ctx, args, stdout, stderr)
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
