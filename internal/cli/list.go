package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/preset"
	"github.com/serbench/serbench/registry"
)

func listCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serbench list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: serbench list [codecs|datasets|presets]\n\nLists what -codecs, -datasets and -preset accept; without an argument, all three.\n")
	}
	// Accept the argument before or after the flags.
	var arg []string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		arg, args = args[:1], args[1:]
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	args = append(arg, fs.Args()...)
	what := []string{"codecs", "datasets", "presets"}
	if len(args) > 1 {
		return usagef("list takes at most one argument: codecs, datasets or presets")
	}
	if len(args) == 1 {
		switch args[0] {
		case "codecs", "datasets", "presets":
			what = args
		default:
			return usagef("cannot list %q; choose codecs, datasets or presets", args[0])
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for i, w := range what {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		switch w {
		case "codecs":
			fmt.Fprintln(tw, "CODEC\tFAMILY\tAPI\tMODULE\tVERSION\tCANNOT HOLD\tLOSES\tVARIANT")
			for _, c := range registry.Codecs {
				var losses []string
				for _, l := range c.Losses {
					losses = append(losses, l.String())
				}
				cannot := "-"
				if c.Unsupported != 0 {
					cannot = c.Unsupported.String()
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Family, c.API, c.Module,
					registry.Version(c.Module), cannot, orDash(strings.Join(losses, ", ")), orDash(c.Variant))
			}
		case "datasets":
			fmt.Fprintln(tw, "DATASET\tSHAPES\tSLICE LEN\tSOURCE\tDESCRIPTION")
			for _, d := range dataset.All {
				var shapes []string
				for _, s := range d.Shapes() {
					name := string(s)
					if d.IsXL(s) {
						name += "(xl)"
					}
					shapes = append(shapes, name)
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", d.Name, strings.Join(shapes, ","), d.SliceLen, d.Source, d.Doc)
			}
		case "presets":
			fmt.Fprintln(tw, "PRESET\tDESCRIPTION")
			for _, p := range preset.All {
				fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Doc)
			}
		}
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
