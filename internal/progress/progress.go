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

	"github.com/serbench/serbench/report/table"
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
	if IsTerminal(w) {
		return NewBar(w, total)
	}
	return NewLines(w)
}

// IsTerminal reports whether w is a terminal that can redraw a line.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	return term.IsTerminal(int(f.Fd()))
}

// NewLines returns a Reporter that writes one line per finished job.
func NewLines(w io.Writer) *Reporter { return &Reporter{w: w} }

// NewBar returns a Reporter that draws a bar for total jobs on w, with the
// count, the elapsed time and the estimated time left.
func NewBar(w io.Writer, total int) *Reporter {
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
		fmt.Fprintln(r.w, Line(e))
		return
	}
	// Failures stay on screen above the bar; the bar shows the last job.
	for _, res := range e.Results {
		if res.Status == results.Failed || res.Status == results.Error {
			r.bar.Clear()
			fmt.Fprintf(r.w, "%s %s: %s\n", strings.ToUpper(string(res.Status)), res.Key(), res.ShortReason())
		}
	}
	r.bar.Set(e.Done)
	r.bar.Describe(describe(fmt.Sprintf("%s %s/%s", e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape)))
}

// Finish clears the bar, so what follows starts on a clean line.
func (r *Reporter) Finish() {
	if r == nil || r.bar == nil {
		return
	}
	r.bar.Finish()
	r.bar.Clear()
}

// Line formats an event as one plain progress line:
// "[3/40 2s] json tiny/single: encode 336ns, decode 1.48µs".
func Line(e runner.Event) string {
	var parts []string
	for _, r := range e.Results {
		if r.Status == results.OK {
			parts = append(parts, fmt.Sprintf("%s %s", r.Op, table.Duration(r.NsPerOp.Median)))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s", r.Op, r.Status))
		}
	}
	return fmt.Sprintf("[%d/%d %s] %s %s/%s: %s", e.Done, e.Total, e.Elapsed.Round(time.Second),
		e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape, strings.Join(parts, ", "))
}
