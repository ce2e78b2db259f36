package serbench

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/runner"
	"github.com/serbench/serbench/verify"
)

// exact applies the rule for a value of the user's own: a codec must
// return it exactly, modulo only the losses the user accepted (Losses).
// It round-trips the value through job's codec as the runner does before
// timing (runner.Prepare), first with the accepted losses alone. When that
// fails but the round trip is equal modulo the codec's declared losses,
// the codec is one that loses part of this value: the job is skipped with
// the losses named (Job.Skip). Otherwise the job keeps the accepted losses
// only, so that the runner's checks before and after timing hold the codec
// to the same rule; a codec whose round trip is wrong beyond its declared
// losses keeps them all, so that its failure shows the real defect.
func exact(job *runner.Job, declared, accepted []codec.Loss) {
	strict := *job
	strict.Codec.Losses = slices.Clone(accepted)
	job.Codec.Losses = strict.Codec.Losses
	if _, err := prepare(&strict); !failed(err) {
		return // exact, or a skip or error the runner reports as it is
	}
	lenient := *job
	lenient.Codec.Losses = append(slices.Clone(declared), accepted...)
	p, err := prepare(&lenient)
	if err != nil {
		job.Codec.Losses = lenient.Codec.Losses
		return
	}
	shown, diff := lost(p, declared, accepted)
	job.Skip = fmt.Sprintf("%s does not return this value exactly: it loses %s, as it declares (%s); "+
		"serbench measures a codec only on a value it returns unchanged: accept the loss to measure it, with serbench.Losses(%s) in Go or -accept %s with run -file",
		job.Codec.Name, strings.Join(codec.LossNames(shown), " and "), diff, goLosses(shown), flagLosses(shown))
}

// prepare is runner.Prepare with a panic in codec code turned into an
// error, which the runner reports in its own way when it runs the job.
func prepare(job *runner.Job) (*runner.Prepared, error) {
	return codec.GuardValue(func() (*runner.Prepared, error) { return runner.Prepare(job) })
}

// failed reports whether err says the round trip changed the value.
func failed(err error) bool {
	var ce *runner.CheckError
	return errors.As(err, &ce) && ce.Status == results.Failed
}

// lost returns the declared losses, not accepted, that the round trips
// of p's two messages show (each one without which the decoded value no
// longer compares equal), and the first lines of the exact comparison's
// difference, on one line.
func lost(p *runner.Prepared, declared, accepted []codec.Loss) ([]codec.Loss, string) {
	var open []codec.Loss // declared and not accepted
	for _, l := range declared {
		if !slices.ContainsFunc(accepted, func(a codec.Loss) bool { return covers(a, l) }) {
			open = append(open, l)
		}
	}
	all := append(slices.Clone(declared), accepted...)
	var shown []codec.Loss
	diff := ""
	for k := range 2 { // Msgs[1] is Msgs[0] when there is no second value
		if p.Case.Decode(p.Msgs[k]) != nil {
			continue
		}
		got, err := p.Case.Value()
		if err != nil {
			continue
		}
		if diff == "" {
			diff = oneLine(verify.Equal(p.Ref(k), got, accepted))
		}
		for _, l := range open {
			without := slices.DeleteFunc(slices.Clone(all), func(x codec.Loss) bool { return x == l })
			if !slices.Contains(shown, l) && verify.Equal(p.Ref(k), got, without) != nil {
				shown = append(shown, l)
			}
		}
	}
	if len(shown) == 0 {
		shown = open // the losses explain the change only together
	}
	slices.SortStableFunc(shown, func(a, b codec.Loss) int { return slices.Index(declared, a) - slices.Index(declared, b) })
	return shown, diff
}

// covers reports whether the accepted loss a allows what the declared loss
// l changes: the same kind, and for time or float precision one as coarse
// (as long a duration, as few digits).
func covers(a, l codec.Loss) bool {
	switch {
	case a.Kind != l.Kind:
		return false
	case l.Kind == codec.TimePrecision:
		return a.Precision >= l.Precision
	case l.Kind == codec.FloatPrecision:
		return a.Digits <= l.Digits
	}
	return true
}

// oneLine returns the lines of a mismatch's difference (one per changed
// value, "path: -want +got"), spaces collapsed, joined by "; ": at most
// four of them.
func oneLine(err error) string {
	var mm *verify.MismatchError
	if !errors.As(err, &mm) {
		return "the decoded value differs"
	}
	var lines []string
	for _, line := range strings.Split(mm.Diff, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		if len(lines) == 4 {
			lines = append(lines, "...")
			break
		}
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	if len(lines) == 0 {
		return "the decoded value differs"
	}
	return "-want +got: " + strings.Join(lines, "; ")
}

// goLosses writes losses as the arguments of serbench.Losses in Go.
func goLosses(losses []codec.Loss) string {
	var args []string
	for _, l := range losses {
		name := map[codec.LossKind]string{
			codec.TimePrecision: "TimePrecision", codec.FloatPrecision: "FloatPrecision", codec.TimeZone: "TimeZone", codec.NilEmpty: "NilEmpty",
			codec.NilPointerZero: "NilPointerZero", codec.BinaryText: "BinaryText", codec.InterfaceTypes: "InterfaceTypes",
			codec.IntegerFloat: "IntegerFloat",
		}[l.Kind]
		switch l.Kind {
		case codec.TimePrecision:
			args = append(args, fmt.Sprintf("codec.Loss{Kind: codec.%s, Precision: %s}", name, goDuration(l.Precision)))
		case codec.FloatPrecision:
			args = append(args, fmt.Sprintf("codec.Loss{Kind: codec.%s, Digits: %d}", name, l.Digits))
		default:
			args = append(args, fmt.Sprintf("codec.Loss{Kind: codec.%s}", name))
		}
	}
	return strings.Join(args, ", ")
}

// goDuration writes d as a Go expression: time.Second, 100 * time.Microsecond.
func goDuration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "time.Hour"}, {time.Minute, "time.Minute"}, {time.Second, "time.Second"}, {time.Millisecond, "time.Millisecond"}, {time.Microsecond, "time.Microsecond"}} {
		if d%u.d == 0 {
			if d == u.d {
				return u.name
			}
			return fmt.Sprintf("%d * %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d", d)
}

// flagLosses writes losses as the value of run's -accept flag.
func flagLosses(losses []codec.Loss) string {
	var names []string
	for _, l := range losses {
		switch l.Kind {
		case codec.TimePrecision:
			names = append(names, fmt.Sprintf("%s=%v", l.Kind, l.Precision))
		case codec.FloatPrecision:
			names = append(names, fmt.Sprintf("%s=%d", l.Kind, l.Digits))
		default:
			names = append(names, string(l.Kind))
		}
	}
	return strings.Join(names, ",")
}
