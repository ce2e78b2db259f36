package cli

import (
	"context"
	"io"

	"github.com/serbench/serbench/compliance"
	"github.com/serbench/serbench/hostile"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/study"
	"github.com/serbench/serbench/worker"
)

// hostileCmd runs the hostile-input matrix: every cell in a child process,
// the matrix on stdout, hostile.csv, hostile.json and the reproducers of
// the cells that did not end cleanly under DIR/hostile/; then, unless
// -compliance=false, the JSON compliance matrix of the JSON codecs among
// them (json-compliance.*), whose wrong accepts the hostile verdicts say.
func hostileCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var quick, suite bool
	sc := &studyCommand{
		spec:  func() (*study.Study, error) { return hostile.Spec(quick), nil },
		usage: "serbench hostile [-codecs LIST] [-classes LIST] [-quick] [-compliance=false] [-timeout D] [-o DIR] [-v] [-resume DIR]",
		about: "Feeds every decoder malformed and malicious inputs, each codec in capped child processes,\n" +
			"and keeps the smallest reproducer of every crash, hang or blow-up. Then runs JSONTestSuite's\n" +
			"valid, invalid and implementation-defined cases through every JSON codec among them.",
		parallel: 1,
		flags: func(b *flagBuilder) {
			b.fs.BoolVar(&quick, "quick", false, "fewer inputs per class and nesting only to 100,000 levels")
			b.fs.BoolVar(&suite, "compliance", true, "also run JSONTestSuite's cases through the JSON codecs among -codecs (json-compliance.csv, .json)")
		},
		then: func(ctx context.Context, pool *worker.Pool, m *results.Matrix, o study.Options) ([]*results.Matrix, error) {
			jsonCodecs := compliance.JSONCodecs(o.Codecs)
			if !suite || len(jsonCodecs) == 0 {
				return nil, nil
			}
			s, err := compliance.Spec()
			if err != nil {
				return nil, err
			}
			cm, err := study.Run(ctx, pool, s, study.Options{Codecs: jsonCodecs, Timeout: o.Timeout})
			if err != nil {
				return nil, err
			}
			compliance.Annotate(m, cm)
			return []*results.Matrix{cm}, nil
		},
	}
	return sc.run(ctx, args, stdout, stderr)
}
