package cli

import (
	"context"
	"io"

	"github.com/serbench/serbench/interop"
	"github.com/serbench/serbench/study"
)

// interopCmd runs the cross-language study: every probe another language
// can express, three ways, between each Go codec and the peers of its
// format in Python and Node; the matrix on stdout, the portability
// answers, interop.csv and interop.json, and report.html and summary.md
// of the matrices in -o when no run is there.
func interopCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var langs string
	sc := &studyCommand{
		spec: func() (*study.Study, error) {
			ls, err := interop.ParseLangs(splitList(langs))
			if err != nil {
				return nil, &UsageError{Msg: err.Error()}
			}
			return interop.Spec(ls), nil
		},
		usage: "serbench interop [-codecs LIST] [-langs LIST] [-probes LIST] [-o DIR] [-v] [-resume DIR]",
		about: "Runs every probe another language can express between each Go codec and the most used\n" +
			"libraries of its format in Python, JavaScript (Node) and Java, each in its defaults and as a careful\n" +
			"user sets it: the peer reads what Go wrote, Go reads what the peer wrote back, and Go reads\n" +
			"what the peer wrote of the value. It says per codec whether its data is portable to each\n" +
			"language, and on what condition. Install the pinned peers first: scripts/interop-peers\n" +
			"(a missing one is a skipped column naming the command).",
		parallel: 2,
		flags: func(b *flagBuilder) {
			b.fs.StringVar(&langs, "langs", "", "comma-separated languages of the peers (default: all; python, node, java)")
		},
		pages: true,
	}
	return sc.run(ctx, args, stdout, stderr)
}
