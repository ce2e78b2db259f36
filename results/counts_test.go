package results

import (
	"math"
	"testing"
)

// counted builds a timed and counted result of codec on tiny/single.
func counted(codec string, op Op, ns, lo, hi, instr float64) Result {
	return Result{Codec: codec, Op: op, Dataset: "tiny", Shape: "single", Status: OK, InstrPerOp: instr,
		NsPerOp: Stat{Median: ns, Lo: lo, Hi: hi}, Samples: []Sample{{NsPerOp: ns, Iters: 1}}}
}

func TestCountJudged(t *testing.T) {
	rs := []Result{
		counted("a", Encode, 100, 90, 110, 1000),  // tied with b by time, 30% fewer instructions
		counted("b", Encode, 105, 95, 115, 1300),  //
		counted("c", Encode, 300, 290, 310, 1310), // apart from b by time; counts within CountGap: nothing
		counted("d", Encode, 50, 45, 55, 5000),    // faster than all by time, most instructions: disagrees
		{Codec: "e", Op: Encode, Dataset: "tiny", Shape: "single", Status: OK, NsPerOp: Stat{Median: 80, Lo: 70, Hi: 90}, Samples: []Sample{{NsPerOp: 80, Iters: 1}},
			CountSkipped: "tried under Valgrind and failed"},
	}
	decided, disagree, timeOnly := CountJudged(rs)
	if len(decided) != 1 || decided[0].A.Codec != "a" || decided[0].B.Codec != "b" {
		t.Errorf("decided = %v; want a before b", decided)
	}
	var names [][2]string
	for _, p := range disagree {
		names = append(names, [2]string{p.A.Codec, p.B.Codec})
	}
	if len(names) != 3 || names[0] != [2]string{"a", "d"} {
		t.Errorf("disagree = %v; want a, b and c each against d, a first (the largest gap)", names)
	}
	if timeOnly != 4 {
		t.Errorf("timeOnly = %d; want e's 4 pairs", timeOnly)
	}
}

func TestRankCorrelation(t *testing.T) {
	rs := []Result{counted("a", Encode, 1, 1, 1, 10), counted("b", Encode, 2, 2, 2, 20), counted("c", Encode, 3, 3, 3, 30), counted("d", Encode, 4, 4, 4, 25)}
	rho, n := RankCorrelation(rs)
	if n != 4 || math.Abs(rho-0.8) > 1e-9 {
		t.Errorf("RankCorrelation = %v over %d; want 0.8 over 4", rho, n)
	}
	if rho, _ := RankCorrelation(rs[:2]); !math.IsNaN(rho) {
		t.Errorf("two results: %v; want NaN", rho)
	}
}
