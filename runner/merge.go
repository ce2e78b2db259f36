package runner

import "github.com/serbench/serbench/results"

// Merge returns the result of one benchmark measured twice, first as a
// and again as b (a run's refining pass): the samples of both, and every
// statistic computed again over them. A b that did not end measured (a
// failure or crash on the second visit) is the result: a codec that
// fails once fails.
func Merge(a, b results.Result, o Options) results.Result {
	if b.Status != results.OK || a.Status != results.OK {
		if b.Status != results.OK {
			b.Reason = "on a second visit (the run's refining pass): " + b.Reason
			return b
		}
		return a
	}
	o = o.WithDefaults()
	m := a
	m.Samples = append(append([]results.Sample(nil), a.Samples...), b.Samples...)
	ns := make([]float64, len(m.Samples))
	for i, s := range m.Samples {
		ns[i] = s.NsPerOp
	}
	m.NsPerOp = summarize(ns, o.Confidence)
	m.TargetMet = len(ns) >= o.MinSamples && m.NsPerOp.RelCI() <= o.Target
	m.PooledNsPerOp = pooled(m.Samples)
	m.BPerOp = median(m.Samples, func(s results.Sample) float64 { return s.BPerOp })
	m.Allocs = median(m.Samples, func(s results.Sample) float64 { return s.AllocsPerOp })
	m.CPUNsPerOp = median(m.Samples, func(s results.Sample) float64 { return s.CPUNsPerOp })
	m.MultiThreaded = multiThreaded(m.Samples, m.Procs)
	gcCost(&m)
	m.Busy = a.Busy + b.Busy
	m.Checked = a.Checked + b.Checked
	if m.Flagged == "" {
		m.Flagged = b.Flagged // the checks of either visit may disbelieve the figure
	}
	m.Verified = append(append([]results.Message(nil), a.Verified...), b.Verified...)
	return m
}
