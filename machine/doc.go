// Package machine probes the machine a run measures on: its environment
// (Go version, platform, CPU model, the cores this process may use), a
// fixed probe of its speed (Walk), a Gauge that says whether it runs at
// full speed right now (the runner's quiet gate), a Meter that records its
// speed over a run and Of that sums the probes up (results.Machine), the
// share of a CPU a command gets as it starts (MeasureShare) and the one
// rule that stretches an estimate by it (Stretch), the process's CPU time, a process's usage as the kernel shows it
// (ReadUsage) and the one rule of a hang that judges it (JudgeStall),
// and pinning a thread to a CPU. It is a leaf: it
// imports only results and the build information, so that the runner,
// the supervisor and the measuring layer read the machine through one
// package of its own.
package machine
