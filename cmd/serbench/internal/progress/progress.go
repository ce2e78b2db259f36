// Package progress shows the progress of a serbench run on stderr: a bar
// with the jobs done and an ETA when stderr is a terminal, else one plain
// line per finished job, which logs and CI keep readably.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
)

// A Reporter shows a run's progress. Its Event method is the runner's
// Progress func; Finish clears the bar once the run is over. A nil
// *Reporter does nothing.
type Reporter struct {
	w   io.Writer
	bar *progressbar.ProgressBar // nil: plain lines
}

// New returns a Reporter for total jobs written to w: a bar if w is a
// terminal, plain lines otherwise.
func New(w io.Writer, total int) *Reporter {
	if isTerminal(w) {
		return newBar(w, total)
	}
	return newLines(w)
}

// isTerminal reports whether w is a terminal that can redraw a line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	return term.IsTerminal(int(f.Fd()))
}

// newLines returns a Reporter that writes one line per finished job.
func newLines(w io.Writer) *Reporter { return &Reporter{w: w} }

// newBar returns a Reporter that draws a bar for total jobs on w, with the
// count, the elapsed time and the estimated time left.
func newBar(w io.Writer, total int) *Reporter {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(describe("starting")),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetItsString("jobs"),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionUseANSICodes(true),
	)
	return &Reporter{w: w, bar: bar}
}

// describe pads the bar's description so the bar does not jump.
func describe(s string) string {
	const width = 34
	if n := len([]rune(s)); n > width {
		s = string([]rune(s)[:width-1]) + "…"
	}
	return fmt.Sprintf("%-34s", s)
}

// Event reports a finished job.
func (r *Reporter) Event(e runner.Event) {
	if r == nil {
		return
	}
	if r.bar == nil {
		fmt.Fprintln(r.w, line(e))
		return
	}
	// Failures stay on screen above the bar; the bar shows the last job.
	for _, res := range e.Results {
		if res.Status == results.Failed || res.Status == results.Error {
			r.bar.Clear()
			fmt.Fprintf(r.w, "%s %s: %s\n", strings.ToUpper(string(res.Status)), res.Key(), res.ShortReason())
		}
	}
	if e.Refining {
		r.bar.Describe(describe(fmt.Sprintf("refining %d/%d: %s %s/%s", e.Done, e.Total, e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs))))
		return
	}
	r.bar.Set(e.Done)
	r.bar.Describe(describe(fmt.Sprintf("%s %s/%s", e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs))))
}

// Finish clears the bar, so what follows starts on a clean line.
func (r *Reporter) Finish() {
	if r == nil || r.bar == nil {
		return
	}
	r.bar.Finish()
	r.bar.Clear()
}

// line formats an event as one plain progress line:
// "[3/40 2s] json tiny/single: encode 336ns, decode 1.48µs", or for
// benchmarks not measured, their status and why in a few words:
// "[1/40 0s] binary tiny/single: encode, decode skipped: cannot represent
// variable-size data".
func line(e runner.Event) string {
	var parts []string
	sep := ", "
	for i := 0; i < len(e.Results); i++ {
		r := e.Results[i]
		if r.Status == results.OK {
			parts = append(parts, fmt.Sprintf("%s %s", r.Op, results.FormatNs(r.NsPerOp.Median)))
			continue
		}
		// The ops that follow with the same status and reason share it.
		ops := []string{string(r.Op)}
		why := brief(r.Reason)
		for i+1 < len(e.Results) && e.Results[i+1].Status == r.Status && brief(e.Results[i+1].Reason) == why {
			i++
			ops = append(ops, string(e.Results[i].Op))
		}
		p := strings.Join(ops, ", ") + " " + string(r.Status)
		if why != "" {
			p += ": " + why
			sep = "; "
		}
		parts = append(parts, p)
	}
	pass := ""
	if e.Refining {
		pass = "refining "
	}
	return fmt.Sprintf("[%s%d/%d %s] %s %s/%s: %s", pass, e.Done, e.Total, e.Elapsed.Round(time.Second),
		e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs), strings.Join(parts, sep))
}

// briefLen is the most characters brief keeps.
const briefLen = 72

// brief shortens the reason a benchmark was not measured for a progress
// line, which already names the codec and the dataset: its first line,
// without the codec and type an unsupported-type reason starts with,
// parenthesized detail or what follows a semicolon, cut to briefLen
// characters. The results files keep the whole reason.
func brief(reason string) string {
	s, _, _ := strings.Cut(reason, "\n")
	// "codec binary: unsupported type *dataset.Tiny: cannot represent ..."
	if _, rest, ok := strings.Cut(s, ": unsupported type "); ok && strings.HasPrefix(s, "codec") {
		if _, why, ok := strings.Cut(rest, ": "); ok {
			s = why
		}
	}
	for {
		i := strings.Index(s, " (")
		j := strings.Index(s[max(i, 0):], ")")
		if i < 0 || j < 0 {
			break
		}
		s = s[:i] + s[i+j+1:]
	}
	s, _, _ = strings.Cut(s, "; ")
	if r := []rune(s); len(r) > briefLen {
		s = strings.TrimSpace(string(r[:briefLen-1])) + "…"
	}
	return s
}
