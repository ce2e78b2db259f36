package fidelity

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/verify"
)

// A relaxation is one set of losses compare tries: what verify allows for
// each is what the loss means (verify's rules), and the cell names the
// set that made the values equal: the normalisation. compare tries the
// sets fewest losses first.
type relaxation struct {
	zone                                              int           // an index in zoneLosses
	prec                                              time.Duration // codec.TimePrecision; 0: exact
	digits                                            int           // codec.FloatPrecision's Digits; 0: exact
	nilEmpty, nilZero, anyTypes, unexported, replaced bool
	intFloat                                          bool // codec.IntegerFloat
}

// zoneLosses are the time-zone relaxations, each allowing more than the
// one before: none; the monotonic reading dropped; the zone's name too,
// the offset kept; only the instant kept.
var zoneLosses = [][]codec.Loss{
	nil,
	{{Kind: codec.Monotonic}},
	{{Kind: codec.Monotonic}, {Kind: codec.ZoneName}},
	{{Kind: codec.TimeZone}},
}

// precisions are the time precisions tried, finest first.
var precisions = []time.Duration{0, time.Microsecond, time.Millisecond, time.Second}

// relaxations lists every set, fewest relaxations first, the time ones
// before the others where they tie.
var relaxations = func() []relaxation {
	var out []relaxation
	for flags := range 128 {
		for z := range zoneLosses {
			for _, p := range precisions {
				// Floats are tried at one digit, the loosest; finest
				// then finds the most digits that still compare equal.
				out = append(out, relaxation{zone: z, prec: p,
					nilEmpty: flags&1 != 0, nilZero: flags&2 != 0, anyTypes: flags&4 != 0,
					unexported: flags&8 != 0, replaced: flags&16 != 0, intFloat: flags&32 != 0, digits: flags >> 6})
			}
		}
	}
	cost := func(r relaxation) int {
		n := 0
		for _, b := range []bool{r.zone > 0, r.prec > 0, r.digits > 0, r.nilEmpty, r.nilZero, r.anyTypes, r.unexported, r.replaced, r.intFloat} {
			if b {
				n++
			}
		}
		return n
	}
	// A stable insertion sort by cost keeps the enumeration order within
	// a cost.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && cost(out[j]) < cost(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}()

// losses returns the losses of r, for verify.Compare.
func (r relaxation) losses() []codec.Loss {
	out := append([]codec.Loss(nil), zoneLosses[r.zone]...)
	if r.prec > 0 {
		out = append(out, codec.Loss{Kind: codec.TimePrecision, Precision: r.prec})
	}
	if r.digits > 0 {
		out = append(out, codec.Loss{Kind: codec.FloatPrecision, Digits: r.digits})
	}
	for _, f := range []struct {
		on   bool
		kind codec.LossKind
	}{{r.nilEmpty, codec.NilEmpty}, {r.nilZero, codec.NilPointerZero}, {r.anyTypes, codec.InterfaceTypes}, {r.unexported, codec.Unexported}, {r.replaced, codec.BinaryText}, {r.intFloat, codec.IntegerFloat}} {
		if f.on {
			out = append(out, codec.Loss{Kind: f.kind})
		}
	}
	return out
}

// The normalisations, as cells and Derive name them.
const (
	NormUTC        = "UTC"
	NormOffset     = "offset"
	NormMonotonic  = "monotonic"
	NormNilEmpty   = "nil≡empty"
	NormNilZero    = "nil≡zero-pointer"
	NormAnyTypes   = "any-types"
	NormReplaced   = "U+FFFD"
	NormUnexported = "unexported-dropped"
	NormIntFloat   = "int→float64"
)

// normNames names each loss kind in a cell. A set of zone losses is named
// after its widest: TimeZone implies ZoneName, which comes with Monotonic.
var normNames = map[codec.LossKind]string{
	codec.TimeZone: NormUTC, codec.ZoneName: NormOffset, codec.Monotonic: NormMonotonic,
	codec.NilEmpty: NormNilEmpty, codec.NilPointerZero: NormNilZero, codec.InterfaceTypes: NormAnyTypes,
	codec.Unexported: NormUnexported, codec.BinaryText: NormReplaced, codec.IntegerFloat: NormIntFloat,
}

// finest returns r with the most float digits under which want and got
// still compare equal, r being a set under which they do: fewer digits
// allow more, so the digits that do are a range from 1.
func (r relaxation) finest(want, got any) relaxation {
	if r.digits == 0 {
		return r
	}
	lo, hi := r.digits, codec.MaxDigits // lo compares equal
	for lo < hi {
		mid := (lo + hi + 1) / 2
		t := r
		t.digits = mid
		if verify.Compare(want, got, t.losses()) == nil {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	r.digits = lo
	return r
}

// digitsName names a FloatPrecision loss of d digits in a cell.
func digitsName(d int) string { return strconv.Itoa(d) + " digits" }

// name is the normalisation's name in a cell: "UTC", "1ms", "6 digits",
// "nil≡empty", joined with "," when several were needed.
func (r relaxation) name() string {
	var parts []string
	if z := zoneLosses[r.zone]; len(z) > 0 {
		parts = append(parts, normNames[z[len(z)-1].Kind])
	}
	for _, l := range r.losses()[len(zoneLosses[r.zone]):] {
		switch l.Kind {
		case codec.TimePrecision:
			parts = append(parts, shortDuration(l.Precision))
		case codec.FloatPrecision:
			parts = append(parts, digitsName(l.Digits))
		default:
			parts = append(parts, normNames[l.Kind])
		}
	}
	return strings.Join(parts, ",")
}

func shortDuration(d time.Duration) string {
	switch d {
	case time.Microsecond:
		return "1µs"
	case time.Millisecond:
		return "1ms"
	case time.Second:
		return "1s"
	}
	return d.String()
}

// normLosses returns the losses a cell's normalisation names, the inverse
// of relaxation.name.
func normLosses(norm string) []codec.Loss {
	var out []codec.Loss
	for _, part := range strings.Split(norm, ",") {
		for _, p := range precisions[1:] {
			if part == shortDuration(p) {
				out = append(out, codec.Loss{Kind: codec.TimePrecision, Precision: p})
			}
		}
		if d, ok := strings.CutSuffix(part, " digits"); ok {
			if n, err := strconv.Atoi(d); err == nil {
				out = append(out, codec.Loss{Kind: codec.FloatPrecision, Digits: n})
			}
		}
		for k, n := range normNames {
			if part == n {
				out = append(out, codec.Loss{Kind: k})
			}
		}
	}
	return out
}

// strictest and loosest are the first and the last sets tried.
var (
	strictest = relaxations[0]
	loosest   = relaxations[len(relaxations)-1]
)

// maxDiff is the most of a diff a cell keeps.
const maxDiff = 1500

// compare returns "" and nil if want and got are equal; the normalisation
// that makes them equal and nil; or "" and the error of the strictest
// comparison: a *verify.MismatchError holding the diff (-want +got), or a
// *verify.CheckError when the comparison itself failed.
func compare(want, got any) (norm string, err error) {
	err = verify.Compare(want, got, strictest.losses())
	var mm *verify.MismatchError
	if err == nil || !errors.As(err, &mm) || verify.Compare(want, got, loosest.losses()) != nil {
		return "", err
	}
	for _, r := range relaxations[1:] {
		if verify.Compare(want, got, r.losses()) == nil {
			return r.finest(want, got).name(), nil
		}
	}
	return "", err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n... (truncated)"
}

// Normalise returns "" and nil if want and got are equal; the name of the
// normalisation that makes them equal ("UTC,1ms", "nil≡empty", "any-types")
// and nil; or the error of the strictest comparison, a
// *verify.MismatchError holding the diff. It names a difference by
// serbench's loss kinds as a fidelity cell does, for any study that judges
// a value read back.
func Normalise(want, got any) (norm string, err error) { return compare(want, got) }
