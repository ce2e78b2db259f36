// Package progress shows the progress of a serbench run on stderr: a bar
// with the jobs done and an ETA when stderr is a terminal, else one plain
// line per finished job, which logs and CI keep readably.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
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

	mu          sync.Mutex
	done, total int
	last        string        // the job last finished
	said        time.Duration // when a line was last written, from the run's start
	zero        time.Time     // the run's start on the wall clock, as the last event puts it
	stop        chan struct{} // closed by Finish: Keepalive's goroutine ends
	// weights are the jobs' expected times by jobKey (Weigh), est the
	// run's estimate; doneW and totalW the weights of the jobs done and
	// of all.
	weights       map[string]time.Duration
	est           time.Duration
	capped        bool
	doneW, totalW time.Duration
	// counting says the run's count pass has begun (runner.Event.Counting):
	// done and total count its jobs, the time from its start, and
	// countEst (SetCountEstimate) is what it was expected to take.
	counting  bool
	countEst  time.Duration
	countJobs int // the jobs countEst was made for
	// countWhy, set by CorrectCountEstimate, says what countEst was made
	// again from, and countFirst is the estimate it replaced.
	countWhy   string
	countFirst time.Duration
	// fresh says the run's check in fresh processes has begun
	// (BeginFresh): done and total count the jobs whose encodings it has
	// decoded, the time from its start.
	fresh bool
}

// SetCountEstimate gives how long the count pass after timing (run
// -measure both) is expected to take, est for counting jobs jobs: once it
// begins, the time left is told by it, then at the pace of the jobs
// counted. A count pass of fewer jobs (those -time cut short are not
// counted) is told their share of it.
func (r *Reporter) SetCountEstimate(est time.Duration, jobs int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.countEst, r.countJobs = est, jobs
}

// CorrectCountEstimate replaces the count pass's estimate, as the pass
// begins, with est for jobs jobs, made again from what the timed pass
// measured (why says what, for its first line): the line that says the
// pass begins gives est, why, and the estimate it replaces.
func (r *Reporter) CorrectCountEstimate(est time.Duration, jobs int, why string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.countFirst = r.countEst
	if r.countJobs > jobs && jobs > 0 {
		r.countFirst = time.Duration(float64(r.countEst) * float64(jobs) / float64(r.countJobs))
	}
	r.countEst, r.countJobs, r.countWhy = est, jobs, why
}

// Weigh gives the jobs' expected times (weights[i] is jobs[i]'s) and the
// run's estimate, so that the time left is told at the pace of the jobs
// done against what they were expected to take, not by their count: a
// job of a huge value takes a hundred times a small one's.
// capped says the estimate is a whole-run time (-time) that ends the run:
// no time left told goes past it.
func (r *Reporter) Weigh(jobs []runner.Job, weights []time.Duration, est time.Duration, capped bool) {
	if r == nil || len(weights) != len(jobs) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.weights, r.est, r.capped, r.totalW = map[string]time.Duration{}, est, capped, 0
	for i := range jobs {
		r.weights[jobKey(&jobs[i])] += weights[i]
		r.totalW += weights[i]
	}
}

// jobKey names a job for Weigh: its codec, dataset, shape and goroutines.
func jobKey(j *runner.Job) string {
	return j.Codec.Name + " " + j.Dataset + "/" + j.Shape + results.ProcsSuffix(j.Procs)
}

// left returns the time left at, from the run's start, with done jobs
// done: by the weights of the jobs done when Weigh gave them, else by
// their count; before the first job ends, what the estimate leaves; never
// past a capped estimate.
func (r *Reporter) left(at time.Duration) (time.Duration, bool) {
	left, ok := r.pace(at)
	if ok && r.capped {
		left = max(min(left, r.est-at), 0)
	}
	return left, ok
}

// pace returns the time left at the pace so far (see left); while timing
// in a run that counts too, the count pass's estimate is added.
func (r *Reporter) pace(at time.Duration) (time.Duration, bool) {
	switch {
	case r.fresh && r.done > 0:
		return time.Duration(float64(at) / float64(r.done) * float64(r.total-r.done)), true
	case r.fresh:
		return 0, false
	case r.counting && r.done > 0:
		return time.Duration(float64(at) / float64(r.done) * float64(r.total-r.done)), true
	case r.counting && r.countEst > at:
		return r.countEst - at, true
	case r.counting:
		return 0, false
	case r.doneW > 0 && r.totalW > r.doneW:
		return time.Duration(float64(at)/float64(r.doneW)*float64(r.totalW-r.doneW)) + r.countEst, true
	case r.done > 0:
		return time.Duration(float64(at)/float64(r.done)*float64(r.total-r.done)) + r.countEst, true
	case r.est > at:
		return r.est - at, true
	}
	return 0, false
}

// Quiet is the longest a Reporter in plain lines stays silent while a run
// goes on: a job that prepares and checks huge values takes minutes
// before its line.
const Quiet = 10 * time.Second

// New returns a Reporter for total jobs written to w: a bar if w is a
// terminal, plain lines otherwise.
func New(w io.Writer, total int) *Reporter {
	r := newLines(w)
	if isTerminal(w) {
		r = newBar(w, total)
	}
	r.total = total
	return r
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
func newLines(w io.Writer) *Reporter { return &Reporter{w: w, stop: make(chan struct{})} }

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
	return &Reporter{w: w, bar: bar, stop: make(chan struct{})}
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
	r.mu.Lock()
	defer r.mu.Unlock()
	if e.Counting && e.Job == nil {
		r.beginCounting(e.Total)
		return
	}
	r.done, r.total, r.said = e.Done, e.Total, e.Elapsed
	if !e.Refining && !e.Counting && e.Job != nil {
		r.doneW += r.weights[jobKey(e.Job)]
	}
	r.zero = time.Now().Add(-e.Elapsed) // Keepalive's lines count from the run's own start
	r.last = fmt.Sprintf("%s %s/%s", e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs))
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
	if e.Counting {
		r.bar.Set(e.Done)
		r.bar.Describe(describe(fmt.Sprintf("counting: %s %s/%s", e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs))))
		return
	}
	r.bar.Set(e.Done)
	r.bar.Describe(describe(fmt.Sprintf("%s %s/%s", e.Job.Codec.Name, e.Job.Dataset, e.Job.Shape+results.ProcsSuffix(e.Job.Procs))))
}

// beginCounting starts the count pass's progress: total jobs, from now.
func (r *Reporter) beginCounting(total int) {
	r.counting, r.done, r.total, r.last = true, 0, total, ""
	if r.countJobs > total && total > 0 {
		r.countEst = time.Duration(float64(r.countEst) * float64(total) / float64(r.countJobs))
	}
	r.capped = false // -time bounds the timed passes, not the count
	r.zero, r.said = time.Now(), 0
	if r.bar == nil {
		left := ""
		if r.countEst > 0 {
			left = fmt.Sprintf("; about %v by the estimate", r.countEst.Round(time.Second))
		}
		if r.countWhy != "" {
			left += fmt.Sprintf(" made again %s (first %v)", r.countWhy, r.countFirst.Round(time.Second))
		}
		fmt.Fprintf(r.w, "[counting 0/%d 0s] timing done: counting instructions under Valgrind, %d jobs%s\n", total, total, left)
		return
	}
	r.bar.ChangeMax(total)
	r.bar.Reset()
	r.bar.Describe(describe("counting under Valgrind"))
}

// BeginFresh starts the progress of the run's last check: the verified
// encodings of jobs jobs decoded in fresh processes, a process per codec
// (measure.FreshDecoder).
func (r *Reporter) BeginFresh(jobs int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fresh, r.counting, r.done, r.total, r.last = true, false, 0, jobs, ""
	r.capped = false // -time bounds the timed passes, not the checks after them
	r.zero, r.said = time.Now(), 0
	if r.bar == nil {
		fmt.Fprintf(r.w, "[fresh 0/%d 0s] measured: decoding the encodings of %d jobs in processes that never saw their values, a process per codec\n", jobs, jobs)
		return
	}
	r.bar.ChangeMax(jobs)
	r.bar.Reset()
	r.bar.Describe(describe("decoding in fresh processes"))
}

// FreshDone reports that the fresh processes have decoded the encodings
// of done jobs in all, the last of them a codec's, named, at time at from
// the check's start.
func (r *Reporter) FreshDone(done int, codec string, at time.Duration) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done, r.last = done, codec
	if r.bar != nil {
		r.bar.Set(done)
		r.bar.Describe(describe("fresh processes: " + codec))
		return
	}
	r.said = at
	fmt.Fprintf(r.w, "[fresh %d/%d %v] %s: its jobs' encodings decoded in a fresh process\n", done, r.total, at.Round(time.Second), codec)
}

// Finish stops Keepalive and clears the bar, so what follows starts on a
// clean line.
func (r *Reporter) Finish() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-r.stop:
	default:
		close(r.stop)
	}
	if r.bar == nil {
		return
	}
	r.bar.Finish()
	r.bar.Clear()
}

// Keepalive calls Tick every second until Finish, so that a run in plain
// lines is never silent for more than Quiet. Its clock starts at start,
// then at the run's own start as each event's elapsed time puts it, so
// that its lines and the events' count alike.
func (r *Reporter) Keepalive(start time.Time) {
	if r == nil || r.bar != nil {
		return // a bar shows its elapsed time as it is redrawn
	}
	r.mu.Lock()
	r.zero = start
	r.mu.Unlock()
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-t.C:
				r.mu.Lock()
				zero := r.zero
				r.mu.Unlock()
				r.Tick(time.Since(zero))
			}
		}
	}()
}

// Tick writes, at time at from the run's start, a line that says the run
// is at work when no line was written for Quiet: the jobs done, the last
// of them, and the time left at the pace so far (none before the first
// job ends: it prepares and checks its values first).
func (r *Reporter) Tick(at time.Duration) {
	if r == nil || r.bar != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if at-r.said < Quiet {
		return
	}
	select {
	case <-r.stop:
		return
	default:
	}
	r.said = at
	left, ok := r.left(at)
	if r.fresh {
		more := ""
		if ok {
			more = fmt.Sprintf("; about %v left at the pace so far", left.Round(time.Second))
		}
		last := ""
		if r.last != "" {
			last = ", the last " + r.last + "'s"
		}
		fmt.Fprintf(r.w, "[fresh %d/%d %v] at work: %d of %d jobs' encodings decoded in fresh processes%s%s\n", r.done, r.total, at.Round(time.Second), r.done, r.total, last, more)
		return
	}
	if r.counting {
		more := ""
		if ok {
			more = fmt.Sprintf("; about %v left", left.Round(time.Second))
			if r.done == 0 {
				more += " by the estimate"
			} else {
				more += " at the pace so far"
			}
		}
		last := ""
		if r.last != "" {
			last = ", the last " + r.last
		}
		fmt.Fprintf(r.w, "[counting %d/%d %v] at work: %d of %d jobs counted under Valgrind%s%s\n", r.done, r.total, at.Round(time.Second), r.done, r.total, last, more)
		return
	}
	if r.done == 0 {
		more := ""
		if ok {
			more = fmt.Sprintf("; about %v left by the estimate", left.Round(time.Second))
		}
		fmt.Fprintf(r.w, "[0/%d %v] at work on the first job: preparing and checking its values, then sampling%s\n", r.total, at.Round(time.Second), more)
		return
	}
	fmt.Fprintf(r.w, "[%d/%d %v] at work: %d of %d jobs done, the last %s; about %v left at the pace so far\n",
		r.done, r.total, at.Round(time.Second), r.done, r.total, r.last, left.Round(time.Second))
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
		if r.Status == results.OK && len(r.Samples) == 0 && r.InstrPerOp > 0 {
			parts = append(parts, fmt.Sprintf("%s %s instr", r.Op, results.FormatInstr(r.InstrPerOp)))
			continue
		}
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
	switch {
	case e.Refining:
		pass = "refining "
	case e.Counting:
		pass = "counting "
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

// Off says how far an estimate was from the time taken: "12% over the
// estimate", "30% under it", "on the estimate" within 5%.
func Off(est, took time.Duration) string {
	if est <= 0 {
		return "no estimate"
	}
	d := (float64(took) - float64(est)) / float64(est)
	switch {
	case d > 0.05:
		return fmt.Sprintf("%.0f%% over the estimate", 100*d)
	case d < -0.05:
		return fmt.Sprintf("%.0f%% under it", -100*d)
	}
	return "on the estimate"
}
