package cli

import (
	"flag"
	"fmt"
	"io"
	"time"
)

// A flagBuilder builds a command's flag set from the one definition of
// each flag that several commands share, so that a name means the same in
// every command (-codecs, -o, -timeout, -parallel, -q, -budget), and
// checks every value given against the one statement of its range
// (flagRanges) when it parses.
type flagBuilder struct {
	fs *flag.FlagSet
}

// newFlags returns a builder for the command serbench NAME, whose usage
// line and description head its -h text.
func newFlags(name, usageLine, about string, stderr io.Writer) *flagBuilder {
	fs := flag.NewFlagSet("serbench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n", usageLine)
		if about != "" {
			fmt.Fprint(fs.Output(), about+"\n\n")
		}
		fmt.Fprint(fs.Output(), "Flags:\n")
		fs.PrintDefaults()
	}
	return &flagBuilder{fs: fs}
}

// codecs is -codecs: the codecs to take, by registry name.
func (b *flagBuilder) codecs(p *string, dflt string) {
	b.fs.StringVar(p, "codecs", "", "comma-separated codecs, by the names 'serbench list codecs' prints (default: "+dflt+")")
}

// out is -o: the output directory, which serbench creates, or finds
// empty or holding its own outputs (package outdir).
func (b *flagBuilder) out(p *string, what string) {
	b.fs.StringVar(p, "o", "serbench-out", "`DIR` for "+what+": new, empty, or one serbench wrote before (a directory holding other files is refused)")
}

// timeout is -timeout: how long a child process may stay in one step
// before it is killed as hung and the step recorded so.
func (b *flagBuilder) timeout(p *time.Duration, dflt time.Duration, step string) {
	b.fs.DurationVar(p, "timeout", dflt, "kill a child process that stays in one step ("+step+") for this long, and record the step as hung; "+flagRanges["timeout"].String())
}

// parallel is -parallel: how many child processes run at once.
func (b *flagBuilder) parallel(p *int, dflt int) {
	b.fs.IntVar(p, "parallel", dflt, "how many child processes run at once; "+flagRanges["parallel"].String())
}

// quiet is -q: no progress on stderr.
func (b *flagBuilder) quiet(p *bool) {
	b.fs.BoolVar(p, "q", false, "no progress on stderr")
}

// budget is -budget: the sampling time of one benchmark.
func (b *flagBuilder) budget(p *time.Duration, dflt time.Duration, note string) {
	b.fs.DurationVar(p, "budget", dflt, "sampling time per benchmark, "+flagRanges["budget"].String()+note)
}

// runTime is -time: a whole run's time, shared among its benchmarks;
// what it does not reach is cut short, marked so.
func (b *flagBuilder) runTime(p *time.Duration, dflt time.Duration, note string) {
	b.fs.DurationVar(p, "time", dflt, "the whole run's time, shared among its benchmarks, in [1s, 24h]; what it does not reach is cut short, marked so"+note)
}

// parse parses args and checks every flag given against its range.
func (b *flagBuilder) parse(args []string) error {
	if err := parse(b.fs, args); err != nil {
		return err
	}
	return checkRanges(b.fs)
}

// studyFlags are the flags every study command takes: the codecs, where
// its matrix goes, how many children run at once and how long one may
// stay in one case.
type studyFlags struct {
	codecs, out string
	parallel    int
	timeout     time.Duration
}

// study defines the study flags into f: its files, its default
// parallelism and timeout, and what one step of its children is.
func (b *flagBuilder) study(f *studyFlags, files string, parallel int, timeout time.Duration, step string) {
	b.codecs(&f.codecs, "every registered codec")
	b.out(&f.out, files)
	b.parallel(&f.parallel, parallel)
	b.timeout(&f.timeout, timeout, step)
}
