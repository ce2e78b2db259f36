package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/results"
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
	b.fs.DurationVar(p, "timeout", dflt, "kill a child process that stays in one step ("+step+") while it spends this much CPU time, or sits blocked this long, and record the step as hung (a busy machine slows a child; it does not make it hang); "+flagRanges["timeout"].String())
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

// parse parses args and checks every flag given against its range, and
// the flags given together that contradict each other.
func (b *flagBuilder) parse(args []string) error {
	if err := parse(b.fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	b.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["in-process"] && set["timeout"] {
		return usagef("-timeout kills a worker process that hangs, and -in-process runs without one: give one of them")
	}
	return checkRanges(b.fs)
}

// inProcess is -in-process: measure in this process, not in worker
// processes; -timeout, which kills a hung worker, then cannot apply, and
// parse refuses the two together.
func (b *flagBuilder) inProcess(p *bool) {
	b.fs.BoolVar(p, "in-process", false, "measure in this process, not in worker processes: a crash or hang then ends the command, and -timeout does not apply")
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

// cpu is -cpu: go test's list of GOMAXPROCS values, each benchmark timed
// at each on as many goroutines.
func (b *flagBuilder) cpu(p *cpuList) {
	b.fs.Var(p, "cpu", "comma-separated GOMAXPROCS `LIST`, as go test -cpu: every benchmark is timed at each, on as many goroutines, "+
		"each with cases and messages of its own (throughput and scaling against 1 in the report); each in "+flagRanges["cpu"].String())
}

// liveHeap is -live-heap: pointer-rich data kept alive in each measuring
// process while it samples.
func (b *flagBuilder) liveHeap(p *byteSize) {
	b.fs.Var(p, "live-heap", "keep `SIZE` (256MB, 1GiB) of pointer-rich data alive in each measuring process while it samples, "+
		"so that every collection marks a service's heap; samples then meet the collector as it comes; "+flagRanges["live-heap"].String())
}

// A cpuList is a -cpu value: "1,2,4".
type cpuList []int

func (l *cpuList) String() string {
	if l == nil {
		return ""
	}
	s := make([]string, len(*l))
	for i, n := range *l {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func (l *cpuList) Set(s string) error {
	*l = nil
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return fmt.Errorf("%q is not a number of CPUs", f)
		}
		if slices.Contains(*l, n) {
			return fmt.Errorf("%d is listed twice", n)
		}
		*l = append(*l, n)
	}
	if len(*l) == 0 {
		return errors.New("no GOMAXPROCS listed")
	}
	return nil
}

func (l *cpuList) Get() any { return []int(*l) }

// A byteSize is a size flag's value in bytes: "256MB", "1GiB", "4096".
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Get() any { return int64(*b) }

func (b *byteSize) Set(s string) error {
	num := strings.TrimRight(s, "KMGTiBkb")
	mult := int64(1)
	switch unit := strings.TrimSpace(s[len(num):]); strings.ToUpper(unit) {
	case "", "B":
	case "KB", "K":
		mult = 1e3
	case "MB", "M":
		mult = 1e6
	case "GB", "G":
		mult = 1e9
	case "KIB":
		mult = 1 << 10
	case "MIB":
		mult = 1 << 20
	case "GIB":
		mult = 1 << 30
	default:
		return fmt.Errorf("unknown unit %q in %q: use B, KB, MB, GB, KiB, MiB or GiB", unit, s)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a size such as 256MB", s)
	}
	*b = byteSize(n * mult)
	return nil
}

// measureFlag is -measure: what a run measures of each op, one of
// results.Measures.
func (b *flagBuilder) measure(p *measureMode) {
	*p = measureMode(results.MeasureTime)
	b.fs.Var(p, "measure", "what to measure of each op: "+strings.Join(results.Measures, ", ")+
		"; instructions are counted under Valgrind (callgrind), which a busy machine does not move, and both times then counts")
}

// A measureMode is a -measure value.
type measureMode string

func (m *measureMode) String() string { return string(*m) }
func (m *measureMode) Get() any       { return string(*m) }

func (m *measureMode) Set(s string) error {
	if !slices.Contains(results.Measures, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(results.Measures, ", "))
	}
	*m = measureMode(s)
	return nil
}

// verbose is -v: say more. A study command prints every cell that is not
// of the best outcome and the codecs that take no part; list prints the
// long form of each row.
func (b *flagBuilder) verbose(p *bool, what string) {
	b.fs.BoolVar(p, "v", false, "say more: "+what)
}

// resume is -resume: finish what a killed or interrupted run of the
// command left in its output directory, with the options it had.
func (b *flagBuilder) resume(p *string, what string) {
	b.fs.StringVar(p, "resume", "", "finish the killed or interrupted "+what+" whose output directory is `DIR`, with its options; what it finished is kept")
}
