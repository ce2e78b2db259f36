package evolve

import (
	"os"
	"testing"

	"github.com/serbench/serbench/evolve/change"
	"github.com/serbench/serbench/report/matrix"
)

func TestDump(t *testing.T) {
	if os.Getenv("EVOLVE_DUMP") == "" {
		t.Skip()
	}
	ps := Participants()
	m := NewMatrix(ps, change.Names())
	for _, p := range ps {
		for i := range change.Cases {
			for _, d := range change.Directions {
				m.Add(RunCell(p, &change.Cases[i], d, func(string) {}))
			}
		}
	}
	m.JudgeAll()
	matrix.Write(os.Stdout, m, os.Getenv("EVOLVE_DUMP") == "v")
}
