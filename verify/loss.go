package verify

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/serbench/serbench/codec"
)

// A rules is what a set of losses lets differ. This file is the one place
// that says what each codec.Loss means: newRules maps each kind to the
// rule it turns on, and the rules act where walk.go compares a pair of
// values.
type rules struct {
	// prec: times are equal when less than prec apart (TimePrecision);
	// 0 asks for the same instant.
	prec time.Duration
	// digits: floats are equal when they agree to digits significant
	// digits (see floatsEqual) (FloatPrecision); 0 asks for the same
	// number.
	digits int
	// zone: only the instant of a time counts (TimeZone).
	zone bool
	// zoneName: a time's location may have another name, the offset
	// kept (ZoneName).
	zoneName bool
	// mono: a time's monotonic clock reading may be dropped (Monotonic).
	mono bool
	// nilEmpty: a nil slice or map equals an empty one, and in an
	// interface, a nil interface (JSON's null) equals an empty slice or
	// map (NilEmpty).
	nilEmpty bool
	// nilZero: a nil pointer equals a pointer to a zero value
	// (NilPointerZero).
	nilZero bool
	// text: strings and []byte are compared as text carries them (see
	// asText) (BinaryText).
	text bool
	// ifaces: a value held in an interface is compared in its canonical
	// form (see canonical) (InterfaceTypes).
	ifaces bool
	// intFloat: an integer held in an interface equals a number that
	// reads as the same float64 (IntegerFloat).
	intFloat bool
	// unexported: the unexported fields of a struct with an exported
	// field are skipped (Unexported).
	unexported bool
}

// newRules returns the rules of losses, or an error naming a kind it does
// not know.
func newRules(losses []codec.Loss) (rules, error) {
	var r rules
	for _, l := range losses {
		switch l.Kind {
		case codec.TimePrecision:
			if l.Precision <= 0 {
				return r, fmt.Errorf("loss %s needs a positive Precision", l.Kind)
			}
			r.prec = max(r.prec, l.Precision)
		case codec.FloatPrecision:
			if l.Digits < 1 || l.Digits > codec.MaxDigits {
				return r, fmt.Errorf("loss %s needs Digits, the significant digits kept, from 1 to %d", l.Kind, codec.MaxDigits)
			}
			if r.digits == 0 || l.Digits < r.digits {
				r.digits = l.Digits // the fewest digits allow the most
			}
		case codec.TimeZone:
			r.zone, r.zoneName, r.mono = true, true, true
		case codec.ZoneName:
			r.zoneName = true
		case codec.Monotonic:
			r.mono = true
		case codec.NilEmpty:
			r.nilEmpty = true
		case codec.NilPointerZero:
			r.nilZero = true
		case codec.BinaryText:
			r.text = true
		case codec.InterfaceTypes:
			r.ifaces = true
		case codec.IntegerFloat:
			r.intFloat = true
		case codec.Unexported:
			r.unexported = true
		default:
			return r, fmt.Errorf("unknown loss kind %q; known: %v", l.Kind, codec.LossKinds)
		}
	}
	return r, nil
}

// timesEqual compares two times under r: the instants (less than prec
// apart, or equal), then unless zone the offsets, then unless zoneName the
// locations' names, then unless mono whether each has a monotonic reading.
func (r rules) timesEqual(a, b time.Time) bool {
	ai, bi := a.Round(0), b.Round(0) // instants without the monotonic reading
	if d := ai.Sub(bi).Abs(); r.prec > 0 && d >= r.prec || r.prec == 0 && d != 0 {
		return false
	}
	if r.zone {
		return true
	}
	if _, ao := a.Zone(); true {
		if _, bo := b.Zone(); ao != bo {
			return false
		}
	}
	if !r.zoneName && a.Location().String() != b.Location().String() {
		return false
	}
	return r.mono || (a == ai) == (b == bi)
}

// floatsEqual compares two floats under r, want the original and got the
// decoded value, of a type of bits bits (32 or 64): the same number
// (floatsSame), or, with digits, two finite numbers less apart than half
// a unit of want's digits-th significant digit, or of its digits-th
// decimal when |want| < 0.1, plus one unit in the last place of want in
// its type: a decimal rounded to digits digits, read back into a float32
// or a float64, lands there. A zero keeps its sign: it needs no rounding.
func (r rules) floatsEqual(want, got float64, bits int) bool {
	if floatsSame(want, got) {
		return true
	}
	if r.digits == 0 || want == 0 || math.IsNaN(want) || math.IsNaN(got) || math.IsInf(want, 0) || math.IsInf(got, 0) {
		return false // a zero (of either sign), NaN and the infinities need no rounding
	}
	return math.Abs(want-got) <= tolerance(want, r.digits)+ulp(want, bits)
}

// tolerance is half a unit of the digits-th significant digit of x, or of
// its digits-th decimal when |x| < 0.1, whichever is the larger.
func tolerance(x float64, digits int) float64 {
	e := -1 // the exponent of x's first significant digit, at least -1
	if a := math.Abs(x); a >= 0.1 {
		e = int(math.Floor(math.Log10(a)))
	}
	return 0.5 * math.Pow(10, float64(e-digits+1))
}

// ulp returns the gap between |x| and the next float of its type towards
// zero: one unit in the last place, never infinite.
func ulp(x float64, bits int) float64 {
	x = math.Abs(x)
	if bits == 32 {
		f := float32(x)
		if f == 0 {
			return math.SmallestNonzeroFloat32
		}
		return float64(f - math.Nextafter32(f, 0))
	}
	if x == 0 {
		return math.SmallestNonzeroFloat64
	}
	return x - math.Nextafter(x, 0)
}

// numbersEqual compares two numbers held in interfaces, in canonical form
// (see canonical), under r: the same text; with intFloat, an integer want
// and a got that is want rounded to the nearest float64, as a decoder of
// numbers into float64 gives it back; or, with digits, floats that
// floatsEqual deems equal as float64s. Integers (their text all digits)
// are otherwise compared exactly: FloatPrecision rounds floats, not
// integers.
func (r rules) numbersEqual(want, got number) bool {
	if want == got {
		return true
	}
	if r.intFloat && integer(want) {
		w, err1 := strconv.ParseFloat(string(want), 64) // the nearest float64
		g, err2 := strconv.ParseFloat(string(got), 64)
		// got is that float64 itself, not another integer near it.
		if err1 == nil && err2 == nil && w == g && (!integer(got) || strconv.FormatFloat(g, 'f', 0, 64) == string(got)) {
			return true
		}
	}
	if r.digits == 0 || integer(want) && integer(got) {
		return false
	}
	w, err1 := strconv.ParseFloat(string(want), 64)
	g, err2 := strconv.ParseFloat(string(got), 64)
	return err1 == nil && err2 == nil && r.floatsEqual(w, g, 64)
}

// integer reports whether n is an integer's text: an optional minus sign
// and digits.
func integer(n number) bool {
	s := strings.TrimPrefix(string(n), "-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// asText returns p as a format that carries text gives it back: each byte
// of an invalid UTF-8 sequence, and each control character but tab,
// newline and carriage return, replaced by U+FFFD.
func asText(p string) string {
	i := 0
	for i < len(p) {
		r, n := utf8.DecodeRuneInString(p[i:])
		if notText(r, n) {
			break
		}
		i += n
	}
	if i == len(p) {
		return p
	}
	out := []rune(p[:i])
	for i < len(p) {
		r, n := utf8.DecodeRuneInString(p[i:])
		if notText(r, n) {
			r = utf8.RuneError
		}
		out = append(out, r)
		i += n
	}
	return string(out)
}

// notText reports whether rune r, decoded from n bytes, is not carried as
// text: a byte of an invalid sequence, or a control character.
func notText(r rune, n int) bool {
	return r == utf8.RuneError && n == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r'
}

// A number is the canonical form of a number held in an interface: its
// exact value in decimal, whatever its Go type. It is its own type, so
// that it never equals a string.
type number string

// canonical returns the canonical form of v, a value held in an
// interface, one level deep, for InterfaceTypes: a number as a number; a
// map as a map[string]any of its entries, keyed by the keys' text; a list
// of key-value pairs (a slice of structs of two fields, Key and Value, as
// BSON's bson.D) as that map; any other slice or array but bytes as an
// []any; anything else as it is. The entries are held in interfaces, so
// the walk puts them in canonical form in turn. It returns the zero Value
// for a nil interface, map, slice or pointer: in an interface, as JSON's
// null. A value it cannot read (reached through an unexported field) is
// returned as it is.
func canonical(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if !v.CanInterface() {
		return v
	}
	if n, ok := numberOf(v); ok {
		return reflect.ValueOf(n)
	}
	switch v.Kind() {
	case reflect.Map:
		if v.IsNil() {
			return reflect.Value{}
		}
		m := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			m[keyText(it.Key())] = it.Value().Interface()
		}
		return reflect.ValueOf(m)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return reflect.Value{}
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		if pairs(v.Type().Elem()) {
			m := make(map[string]any, v.Len())
			for i := range v.Len() {
				m[keyText(v.Index(i).Field(0))] = v.Index(i).Field(1).Interface()
			}
			return reflect.ValueOf(m)
		}
		s := make([]any, v.Len())
		for i := range v.Len() {
			s[i] = v.Index(i).Interface()
		}
		return reflect.ValueOf(s)
	}
	return v
}

// numberOf returns the canonical form of v if it is a number.
func numberOf(v reflect.Value) (number, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return number(strconv.FormatInt(v.Int(), 10)), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return number(strconv.FormatUint(v.Uint(), 10)), true
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return number(strconv.FormatInt(int64(f), 10)), true
		}
		return number(strconv.FormatFloat(f, 'g', -1, 64)), true
	}
	return "", false
}

// keyText returns the text of a map key in canonical form: a number's
// decimal, a string as it is, anything else as fmt prints it. Keys are
// scalars or values of fixed types, never deeply nested.
func keyText(k reflect.Value) string {
	for k.Kind() == reflect.Interface || k.Kind() == reflect.Pointer {
		if k.IsNil() {
			return "<nil>"
		}
		k = k.Elem()
	}
	if n, ok := numberOf(k); ok {
		return string(n)
	}
	if k.Kind() == reflect.String {
		return k.String()
	}
	if k.CanInterface() {
		return fmt.Sprint(k.Interface())
	}
	return k.String()
}

// pairs reports whether t is a key-value pair: a struct of two exported
// fields, Key and Value.
func pairs(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 2 &&
		t.Field(0).Name == "Key" && t.Field(1).Name == "Value" && t.Field(0).IsExported()
}
