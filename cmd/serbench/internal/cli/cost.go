package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/cost"
	"github.com/serbench/serbench/study"
)

// costCmd runs the cost study on the study template: what adopting each
// codec costs, the matrix on stdout, cost.csv and cost.json in -o.
func costCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var (
		runs    int
		src     string
		offline bool
		built   int
	)
	sc := &studyCommand{
		spec: func() (*study.Study, error) {
			o := cost.Options{Runs: runs}
			if offline {
				o.Proxy = "off"
			}
			// The template builds the value once before it parses the
			// flags (for the study's name and defaults): -src is known
			// from the second on.
			if built++; built > 1 {
				root, err := checkout(src)
				if err != nil {
					return nil, err
				}
				o.Root = root
			}
			return cost.Spec(o), nil
		},
		usage: "serbench cost [-codecs LIST] [-costs LIST] [-runs N] [-src DIR] [-offline] [-o DIR] [-v] [-resume DIR]",
		about: "Measures what adopting each codec costs besides run time: the bytes it adds to a stripped\n" +
			"binary, the CPU-seconds it adds to a cold build, the modules, licences, unsafe, assembly,\n" +
			"cgo and JIT code it brings, its generated code and generator, whether its output is the\n" +
			"same bytes every time, and its module's latest release. It writes a small main per codec\n" +
			"into a temporary directory from the serbench checkout -src and builds them all at once,\n" +
			"-runs times, each build in a child process (-parallel of them side by side), timing each\n" +
			"package's compile and each link in CPU-seconds (go build -toolexec).",
		parallel: 2,
		flags: func(b *flagBuilder) {
			b.fs.IntVar(&runs, "runs", cost.DefaultRuns, "cold builds of the codecs' mains, whose median and 95% interval are reported (6 is the fewest with an interval); "+flagRanges["runs"].String())
			b.fs.StringVar(&src, "src", "", "the serbench checkout whose adapters are built (default: the module around the current directory)")
			b.fs.BoolVar(&offline, "offline", false, "ask the module proxy nothing: the upkeep column says so")
		},
	}
	return sc.run(ctx, args, stdout, stderr)
}

// checkout returns the serbench checkout src names, or the module root
// around the current directory.
func checkout(src string) (string, error) {
	if src != "" {
		abs, err := filepath.Abs(src)
		if err != nil {
			return "", &UsageError{Msg: fmt.Sprintf("-src %s: %v", src, err)}
		}
		if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
			return "", &UsageError{Msg: fmt.Sprintf("-src %s: no go.mod there: name a serbench checkout", src)}
		}
		return abs, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", &UsageError{Msg: err.Error()}
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", &UsageError{Msg: fmt.Sprintf("no go.mod in %s or above: run serbench cost in a serbench checkout, or name one with -src", dir)}
		}
	}
}
