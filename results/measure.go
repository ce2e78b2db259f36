package results

import "strconv"

// What a run measures (Options.Measure): the time of each op, the
// instructions it runs counted under Valgrind, or both.
const (
	MeasureTime         = "time"
	MeasureInstructions = "instructions"
	MeasureBoth         = "both"
)

// UnitInstructions is the benchstat unit of an op's instructions counted
// under Valgrind (Result.InstrPerOp): a count, exact, one value per run.
const UnitInstructions = "instructions/op"

// Measures lists the values of Options.Measure, the default first.
var Measures = []string{MeasureTime, MeasureInstructions, MeasureBoth}

// Timed reports whether the run timed its ops.
func (o Options) Timed() bool { return o.Measure != MeasureInstructions }

// Counted reports whether the run counted its ops' instructions.
func (o Options) Counted() bool {
	return o.Measure == MeasureInstructions || o.Measure == MeasureBoth
}

// FormatInstr formats an instruction count per op to three significant
// digits: "812", "4.34k", "1.52M", "2.01G".
func FormatInstr(n float64) string {
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if n >= u.div {
			return strconv.FormatFloat(n/u.div, 'g', 3, 64) + u.unit
		}
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}
