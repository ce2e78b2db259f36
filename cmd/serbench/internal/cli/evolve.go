package cli

import (
	"context"
	"io"

	"github.com/serbench/serbench/evolve"
	"github.com/serbench/serbench/study"
)

// evolveCmd runs the schema-evolution matrix: every case both ways through
// every codec that takes part, each cell in a child process, the matrix
// on stdout, evolution.csv and evolution.json.
func evolveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	sc := &studyCommand{
		spec:    func() (*study.Study, error) { return evolve.Spec(), nil },
		command: "evolve",
		usage:   "serbench evolve [-codecs LIST] [-cases LIST] [-parallel N] [-timeout D] [-o DIR] [-v] [-resume DIR]",
		about: "Runs every schema change both ways (an old reader on new data, a new reader on old data)\n" +
			"through every codec that can express it, and says what each reader gets. -cases takes a change\n" +
			"(both ways) or one way of it (rename/old-reads-new).",
		parallel: 2,
	}
	return sc.run(ctx, args, stdout, stderr)
}
