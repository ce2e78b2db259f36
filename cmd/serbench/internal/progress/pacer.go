package progress

import (
	"fmt"
	"io"
	"math"
	"sync"
	"time"
)

// A Pacer tells the progress of a command made of units that a Reporter
// does not count (an interleaved comparison's runs, a study's cells) in
// plain lines: the estimate, once the pace of the first units calibrates
// it (or one given at the start), a line at least every Quiet, and at the
// end how far the estimate was off. Its clock is injected, so that what a
// test asserts of it does not depend on the machine's speed. A nil *Pacer
// does nothing.
type Pacer struct {
	w     io.Writer
	what  string // the units' name, plural: "cells", "runs"
	total int
	now   func() time.Time
	start time.Time

	mu       sync.Mutex
	done     int
	last     string        // the unit last done
	said     time.Duration // when a line was last written, from the start
	est      time.Duration // the estimate said, 0 before it is
	base     time.Duration // when the units began (Begin), from the start
	doing    string        // what comes before the first unit, for its lines (SetDoing)
	stop     chan struct{}
	finished bool

	// The units' tasks, when the command tells them (Task): the pace is
	// then one of work, the wall time of tasks, not of units.
	rerun   float64       // what a unit's tasks after its first cost, in its first's (SetRerun)
	firsts  int           // the units whose first task ended
	again   int           // of them, those that run again
	firstW  time.Duration // the wall time of the first tasks
	againW  time.Duration // of them, those of the units that run again
	workW   time.Duration // the wall time of every task ended
	sx, sxx float64       // the sum of the units' work by their first tasks (seconds), and of its squares
	after   int           // units of another kind after these (SetAfter)
	afterW  string        // what they are, for the estimate's line
}

// NewPacer returns a Pacer for total units named what, starting now on
// the clock now. est, if positive, is the command's estimate, said
// already by the caller; otherwise the Pacer makes one from the pace of
// the first units (Calibrated) and says it.
func NewPacer(w io.Writer, what string, total int, est time.Duration, now func() time.Time) *Pacer {
	return &Pacer{w: w, what: what, total: total, now: now, start: now(), est: est, stop: make(chan struct{})}
}

// SetTotal sets how many units there are, when they are known only once
// the command has started.
func (p *Pacer) SetTotal(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = n
}

// SetEstimate sets the command's estimate, said by the caller, when it
// is known only once the command has started (after its builds).
func (p *Pacer) SetEstimate(est time.Duration) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.est = est
	p.said = p.now().Sub(p.start)
}

// Elapsed returns the time since the Pacer started, on its clock.
func (p *Pacer) Elapsed() time.Duration {
	if p == nil {
		return 0
	}
	return p.now().Sub(p.start)
}

// SetDoing says what the command does before its first unit begins
// ("building the two versions"), for the lines that break a silence; ""
// once it is done.
func (p *Pacer) SetDoing(what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.doing = what
}

// Begin says the units start now: what came before (a study's
// generation of its inputs) is left out of their pace, and the units
// done so far (by that preparation) out of their count.
func (p *Pacer) Begin() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.base = p.now().Sub(p.start)
	p.total -= p.done
	p.done = 0
}

// Calibrated reports whether done units by at, from when they began,
// are enough to tell the pace of all: a tenth of them; thirty once a
// minute has passed; any after five minutes. Fewer tell the pace of their
// own kind alone: a study's cells cost from milliseconds to the minutes
// of a hang or a memory blow-up, and ten of them miss the dear ones.
func Calibrated(done, total int, at time.Duration) bool {
	return done > 0 && (done*10 >= total || done >= 30 && at >= 6*Quiet || at >= 30*Quiet)
}

// SetRerun says what the tasks a unit runs after its first cost, when
// its first task ends asking for more (Task), as a multiple of that
// first task's wall time: a hostile cell's reproducer is replayed twice,
// each replay about as dear as the cell's first task. Zero: the units'
// further tasks are reckoned at their first's cost, once.
func (p *Pacer) SetRerun(f float64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rerun = f
}

// SetAfter says that n units of another kind follow the command's own,
// named what ("169 cells of json-compliance"), each reckoned at the mean
// cost of a first task of the command's units (or of a unit, not told
// the tasks): a study's After step, a few per cent of the command.
func (p *Pacer) SetAfter(n int, what string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.after, p.afterW = n, what
}

// Task records that a task of a unit ended after wall, the unit's first
// when first, and again when the unit runs another task after it. A
// Pacer told of tasks paces work, the tasks' wall time, not units: the
// first tasks' mean for every unit, and the units that ran again their
// share of them, at SetRerun's multiple of their first task's cost; so
// that the units the first rounds leave for later ones (a study's cells
// whose children died, replayed after every cell's first task) are in
// the estimate too.
func (p *Pacer) Task(wall time.Duration, first, again bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.workW += wall
	if first {
		p.firsts++
		p.firstW += wall
		x := wall.Seconds()
		if again {
			p.again++
			p.againW += wall
			x *= 1 + p.rerunOr1()
		}
		p.sx += x
		p.sxx += x * x
	}
	p.calibrate(p.now().Sub(p.start))
}

// Done records that a unit ended, named last, and says the estimate when
// the units done calibrate it.
func (p *Pacer) Done(last string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.last = last
	p.calibrate(p.now().Sub(p.start))
}

// byWork reports whether the pace is one of work: the units' tasks were
// told (Task), and took time.
func (p *Pacer) byWork() bool { return p.firsts > 0 && p.workW > 0 }

// work returns the wall time the units' tasks take in all, by the tasks
// so far: the first tasks' mean for every unit, and the units that ran
// again their share of it, at the rerun multiple of their first's.
func (p *Pacer) work() time.Duration {
	per := (float64(p.firstW) + p.rerunOr1()*float64(p.againW)) / float64(p.firsts)
	return time.Duration(per*float64(p.total) + float64(p.firstW)/float64(p.firsts)*float64(p.after))
}

// rerunOr1 is the rerun multiple, 1 when none was set.
func (p *Pacer) rerunOr1() float64 {
	if p.rerun <= 0 {
		return 1
	}
	return p.rerun
}

// rse returns the relative standard error of the mean work per unit, by
// the first tasks so far: 1 when too few tell it.
func (p *Pacer) rse() float64 {
	n := float64(p.firsts)
	if n < 2 || p.sx <= 0 {
		return 1
	}
	mean := p.sx / n
	v := max(p.sxx/n-mean*mean, 0) * n / (n - 1)
	return math.Sqrt(v/n) / mean
}

// CalibratedWork reports whether the first tasks of n units of total,
// by at from when they began, tell the pace of all, the mean work per
// unit known to within rse (its standard error over it): a tenth of the
// units, once rse is at most a quarter (one hang of seconds among a
// hundred cells of milliseconds is a third of their work: the estimate
// waits for more cells); else half of them; any after five minutes.
func CalibratedWork(n, total int, at time.Duration, rse float64) bool {
	return n > 0 && (n*10 >= total && rse <= 0.25 || n*2 >= total || at >= 30*Quiet)
}

// left returns the time left at at, by the pace so far: of the work left
// when the tasks are told and some is, else of the units left.
func (p *Pacer) left(at time.Duration) time.Duration {
	if p.byWork() {
		if w := p.work() - p.workW; w > 0 {
			return time.Duration(float64(at-p.base) / float64(p.workW) * float64(w))
		}
	}
	if p.done == 0 {
		return 0
	}
	return time.Duration(float64(at-p.base) / float64(p.done) * float64(max(p.total+p.after-p.done, 0)))
}

// calibrate says the estimate once the units done tell the pace: the
// time before the units began, and theirs at the pace of the first; or,
// told the tasks, at the pace of the first tasks' work.
func (p *Pacer) calibrate(at time.Duration) {
	// Units done while the command does what comes before them (a
	// study's builds that finish cells at once) tell no pace.
	if p.est > 0 || p.doing != "" {
		return
	}
	if p.byWork() && !CalibratedWork(p.firsts, p.total, at-p.base, p.rse()) || !p.byWork() && !Calibrated(p.done, p.total, at-p.base) {
		return
	}
	p.said = at
	before := ""
	if p.base > 0 {
		before = fmt.Sprintf(" after %v preparing them", p.base.Round(time.Second))
	}
	then := ""
	if p.after > 0 {
		then = fmt.Sprintf("; and %d %s after them, at the same pace", p.after, p.afterW)
		if p.byWork() {
			then = fmt.Sprintf("; and %d %s after them, each at a first task's mean", p.after, p.afterW)
		}
	}
	if !p.byWork() {
		p.est = p.base + time.Duration(float64(at-p.base)/float64(p.done)*float64(p.total+p.after))
		fmt.Fprintf(p.w, "serbench: %d %s; about %v in all, at the pace of the first %d (%v%s)%s, calibrated on this machine as it started\n",
			p.total, p.what, p.est.Round(time.Second), p.done, (at - p.base).Round(time.Second), before, then)
		return
	}
	p.est = p.base + time.Duration(float64(at-p.base)/float64(p.workW)*float64(p.work()))
	again := ""
	if p.again > 0 {
		again = fmt.Sprintf(", %d of which ran again: their further tasks at %.3g× their first's time", p.again, p.rerunOr1())
	}
	fmt.Fprintf(p.w, "serbench: %d %s; about %v in all (standard error %.0f%%), at the pace of the first tasks of %d (%v of work in %v%s%s)%s, calibrated on this machine as it started\n",
		p.total, p.what, p.est.Round(time.Second), 100*p.rse(), p.firsts, p.workW.Round(time.Second), (at - p.base).Round(time.Second), before, again, then)
}

// Tick writes, at the clock's time, a line that says the command is at
// work when none was written for Quiet: the units done, the last of them
// and the time left at the pace so far.
func (p *Pacer) Tick() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	at := p.now().Sub(p.start)
	p.calibrate(at)
	if at-p.said < Quiet {
		return
	}
	p.said = at
	if p.total == 0 {
		fmt.Fprintf(p.w, "[%v] at work: preparing the %s\n", at.Round(time.Second), p.what)
		return
	}
	if p.done == 0 && p.doing != "" {
		fmt.Fprintf(p.w, "[0/%d %v] at work: %s, before the first of %d %s\n", p.total, at.Round(time.Second), p.doing, p.total, p.what)
		return
	}
	if p.done == 0 {
		left := ""
		if p.est > at {
			left = fmt.Sprintf("; about %v left by the estimate", (p.est - at).Round(time.Second))
		}
		fmt.Fprintf(p.w, "[0/%d %v] at work on the first of %d %s%s\n", p.total, at.Round(time.Second), p.total, p.what, left)
		return
	}
	left := p.left(at)
	fmt.Fprintf(p.w, "[%d/%d %v] at work: %d of %d %s done, the last %s; about %v left at the pace so far\n",
		p.done, p.total, at.Round(time.Second), p.done, p.total, p.what, p.last, left.Round(time.Second))
}

// Keepalive calls Tick every second until Finish.
func (p *Pacer) Keepalive() {
	if p == nil {
		return
	}
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.Tick()
			}
		}
	}()
}

// Finish stops Keepalive and says the time taken against the estimate.
func (p *Pacer) Finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	close(p.stop)
	took := p.now().Sub(p.start)
	if p.est > 0 {
		fmt.Fprintf(p.w, "serbench: estimated %v; took %v (%s)\n", p.est.Round(time.Second), took.Round(time.Second), Off(p.est, took))
	}
}
