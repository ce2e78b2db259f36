package fidelity

import (
	"fmt"
	"reflect"

	"github.com/serbench/serbench/codec"
)

// A Derivation is what a codec's row of the matrix shows of the features
// it cannot represent and the losses it has: the data its codec.Info
// declares by hand, derived.
type Derivation struct {
	// Supported and Unsupported are the features whose deciding probe
	// (Probe.Decides) came back exact or normalised, and those whose
	// deciding probe was refused, changed or crashed. A feature in
	// neither is undetermined: its probe is missing, unsupported by the
	// adapter, or carries another feature not known to be supported.
	Supported, Unsupported codec.Features
	// Losses are the losses the probes that show one (Probe.Shows) came
	// back normalised by, in catalogue order of their first probe.
	Losses []codec.Loss
	// Checked holds the loss kinds that some probe showing them could
	// decide: the codec supports every feature of its value.
	Checked map[codec.LossKind]bool
	// Evidence names, for each feature and loss kind found, the probe
	// that shows it, and for each feature found supported, the probe
	// that decided it.
	Evidence map[string]string
}

// featureOrder is the order features are decided in: a probe's other
// features are decided before it.
var featureOrder = []codec.Features{
	codec.VariableSize, codec.TopLevelScalar, codec.TopLevelSlice, codec.Map,
	codec.NonStringKey, codec.Pointer, codec.Interface, codec.Time, codec.Recursive, codec.Array,
}

// Derive derives a codec's features and losses from its cells in m.
func Derive(m *Matrix, codecName string) Derivation {
	d := Derivation{Checked: map[codec.LossKind]bool{}, Evidence: map[string]string{}}
	byName := map[string]Probe{}
	for _, p := range Probes {
		byName[p.Name] = p
	}
	for _, f := range featureOrder {
		for _, pi := range m.Cases {
			p := byName[pi.Name]
			if p.Decides != f || p.Value == nil {
				continue
			}
			c := m.Cell(codecName, p.Name)
			if c == nil {
				continue
			}
			if other := featuresOf(p) &^ f; other&^d.Supported != 0 {
				continue
			}
			switch ev := c.Evidence(); ev.Outcome {
			case Exact, Normalised:
				d.Supported |= f
				d.Evidence[f.String()] = p.Name
			case Changed, RefusedEncode, RefusedDecode, Crashed:
				d.Unsupported |= f
				d.Evidence[f.String()] = p.Name
			}
		}
	}
	found := map[codec.LossKind]bool{}
	for _, pi := range m.Cases {
		p := byName[pi.Name]
		c := m.Cell(codecName, p.Name)
		if p.Shows == "" || c == nil || featuresOf(p)&^d.Supported != 0 {
			continue
		}
		ev := c.Evidence()
		if ev.Outcome == Unsupported {
			continue
		}
		d.Checked[p.Shows] = true
		l, ok := lossOf(p.Shows, ev)
		if !ok || found[p.Shows] {
			continue
		}
		found[p.Shows] = true
		d.Losses = append(d.Losses, l)
		d.Evidence[string(p.Shows)] = p.Name
	}
	return d
}

// featuresOf returns the features of p's value (and of the type it is
// decoded as), or 0 for a probe without a value.
func featuresOf(p Probe) codec.Features {
	if p.Value == nil {
		return 0
	}
	f := codec.FeaturesOf(reflect.TypeOf(p.Value()))
	if p.As != nil {
		f |= codec.FeaturesOf(reflect.TypeOf(p.As()))
	}
	return f
}

// lossOf returns the loss of kind that cell shows, if it shows one: a
// normalised cell whose normalisation holds the loss. What the loss lets
// differ is verify's to say; a probe shows it when the round trip is
// equal only with it allowed.
func lossOf(kind codec.LossKind, c Cell) (codec.Loss, bool) {
	if c.Outcome != Normalised {
		return codec.Loss{}, false
	}
	return findLoss(normLosses(c.Note), kind)
}

// Declared lists the loss kinds a codec's Info declares for every value of
// a type, which Mismatches checks. InterfaceTypes is left out: it is a
// property of generic data (values decoded into any), declared for the
// data, not for a codec.
var Declared = []codec.LossKind{codec.TimePrecision, codec.FloatPrecision, codec.TimeZone, codec.NilEmpty, codec.NilPointerZero, codec.BinaryText, codec.IntegerFloat}

// Mismatches lists where info's declarations differ from what d derived:
// a feature declared unsupported that a probe shows supported, or the
// reverse, and a declared loss no probe shows, or a loss shown and not
// declared. Undetermined features and loss kinds no probe could decide
// are not compared.
func Mismatches(info codec.Info, d Derivation) []string {
	var out []string
	for _, f := range featureOrder {
		declared := info.Unsupported&f != 0
		switch {
		case declared && d.Supported&f != 0:
			out = append(out, fmt.Sprintf("%s declares %s unsupported, but probe %s comes back", info.Name, f, d.Evidence[f.String()]))
		case !declared && d.Unsupported&f != 0:
			out = append(out, fmt.Sprintf("%s does not declare %s unsupported, but probe %s fails", info.Name, f, d.Evidence[f.String()]))
		}
	}
	for _, k := range Declared {
		if !d.Checked[k] {
			continue
		}
		want, wok := findLoss(info.Losses, k)
		got, gok := findLoss(d.Losses, k)
		switch {
		case wok && !gok:
			out = append(out, fmt.Sprintf("%s declares the loss %s, but no probe shows it", info.Name, want))
		case !wok && gok:
			out = append(out, fmt.Sprintf("%s does not declare the loss %s, which probe %s shows", info.Name, got, d.Evidence[string(k)]))
		case wok && gok && want != got:
			out = append(out, fmt.Sprintf("%s declares %s, but probe %s shows %s", info.Name, want, d.Evidence[string(k)], got))
		}
	}
	return out
}

func findLoss(losses []codec.Loss, k codec.LossKind) (codec.Loss, bool) {
	for _, l := range losses {
		if l.Kind == k {
			return l, true
		}
	}
	return codec.Loss{}, false
}

// Shown runs, in this process, the probes that show the losses info
// declares, and returns for each declared loss (by its String) the first
// probe that shows it. The probes are small values, without a cycle or
// deep nesting, and a panic in the codec costs only its probe.
func Shown(info codec.Info) map[string]string {
	out := map[string]string{}
	for _, l := range info.Losses {
		for _, p := range Probes {
			if p.Shows != l.Kind || p.Heavy {
				continue
			}
			got, ok := lossOf(l.Kind, Check(info, p).Evidence())
			if ok && got == l {
				out[l.String()] = p.Name
				break
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Excess runs, in this process, the probes that show the precision losses
// info declares (codec.TimePrecision, codec.FloatPrecision), and returns
// why each declaration is larger than what they observe: a time
// precision coarser than the finest of the probes' precisions under
// which the probe's time comes back equal (exact: none), or fewer float
// digits than the most under which its floats do. verify.Equal allows
// what a codec declares, so a declaration larger than its loss lets a
// codec drop what it claims to keep: a time precision of 200 years
// accepts any time at all. A probe the codec does not take, or whose
// value comes back changed beyond the probes' coarsest precision, decides
// nothing.
func Excess(info codec.Info) []string {
	var out []string
	for _, l := range info.Losses {
		if l.Kind != codec.TimePrecision && l.Kind != codec.FloatPrecision {
			continue
		}
		for _, p := range Probes {
			if p.Shows != l.Kind || p.Heavy {
				continue
			}
			ev := Check(info, p).Evidence()
			if ev.Outcome != Exact && ev.Outcome != Normalised {
				continue
			}
			got, lost := lossOf(l.Kind, ev)
			switch {
			case l.Kind == codec.TimePrecision && !lost:
				out = append(out, fmt.Sprintf("declares %s, but probe %s comes back exact", l, p.Name))
			case l.Kind == codec.TimePrecision && l.Precision > got.Precision:
				out = append(out, fmt.Sprintf("declares %s, but probe %s comes back within %v", l, p.Name, got.Precision))
			case l.Kind == codec.FloatPrecision && !lost:
				out = append(out, fmt.Sprintf("declares %s, but probe %s comes back exact", l, p.Name))
			case l.Kind == codec.FloatPrecision && l.Digits < got.Digits:
				out = append(out, fmt.Sprintf("declares %s, but probe %s keeps %d digits", l, p.Name, got.Digits))
			default:
				continue
			}
			break
		}
	}
	return out
}
