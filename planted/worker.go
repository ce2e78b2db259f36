package planted

import (
	"encoding/json"
	"os"
	"reflect"
	"sync/atomic"
	"syscall"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/dataset"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/worker"
)

// The names of the planted codecs that attack the supervisor (package
// worker) rather than the runner: they act only inside a worker process
// (worker.Serving) and are honest json elsewhere, so that a test running
// them in its own process is not killed or written to.
const (
	Killer    = "planted-killer"
	Neighbour = "planted-neighbour"
	Forger    = "planted-forger"
	Duplicate = "planted-duplicate"
	Overclaim = "planted-overclaim"
	Spin      = "planted-spin"
	Scaler    = "planted-scaler"
)

// ScalerFactor is what planted-scaler divides its figures by.
const ScalerFactor = 1000

// Workers lists the planted codecs that attack the supervisor. They are
// not in Codecs: a test that runs every planted codec in its own process
// would see nothing of them.
var Workers = []codec.Info{
	workerInfo(Killer, "kills its worker on Tiny",
		"planted fault: on dataset.Tiny values, the first Decode in a worker sends SIGKILL to its own process, as the kernel's out-of-memory killer would but without an out-of-memory kill; honest json on every other type",
		onDecode(reflect.TypeFor[dataset.Tiny](), func(*worker.Spec) { p, _ := os.FindProcess(os.Getpid()); p.Kill() })),
	workerInfo(Neighbour, "crashes its worker on Tiny beside Medium",
		"planted fault: on dataset.Tiny values, Decode crashes its worker (an unrecovered panic) when the same worker has prepared a dataset.Medium value: the crash is the other benchmark's doing, and alone in a worker the Tiny benchmark is measured; honest json otherwise",
		neighbour),
	workerInfo(Forger, "forges a rival's result",
		"planted fault: the first Decode in a worker writes, on the worker's events pipe, a result for json on the same job index with a 1 ns decode; honest json otherwise",
		onDecode(nil, func(*worker.Spec) { forge("json", 1e6, 1) })),
	workerInfo(Duplicate, "sends its own result early",
		"planted fault: the first Decode in a worker writes, on the worker's events pipe, a result for its own job 0's decode with a 1 ns figure, before the real one; honest json otherwise",
		onDecode(nil, func(*worker.Spec) { forge(Duplicate, 1e6, 1) })),
	workerInfo(Overclaim, "claims more samples than time",
		"planted fault: the first Decode in a worker writes, on the worker's events pipe, a result for its own job 0's decode whose samples add up to an hour; honest json otherwise",
		onDecode(nil, func(*worker.Spec) { forge(Overclaim, 1e12, 3.6) })),
	workerInfo(Spin, "spins in every Decode",
		"planted fault: in a worker, every Decode spins on the CPU forever; honest json elsewhere",
		onEveryDecode(func() {
			for n := 0; ; n++ {
				spinSink.Store(int64(n))
			}
		})),
	workerInfo(Scaler, "scales its figures down on the events pipe",
		"planted fault: the first Encode in a worker puts a pipe of its own in place of the worker's events pipe and forwards every event through it, its results' samples and figures divided by 1000 (ScalerFactor) on the way: every check in the worker saw the real figures; honest json otherwise",
		scaler),
}

// spinSink keeps planted-spin's loop from being optimised away.
var spinSink atomic.Int64

func workerInfo(name, label, notes string, prepare codec.Func) codec.Info {
	return codec.Info{
		Name: name, Family: "planted", Label: "planted: " + label, Module: "std",
		URL: "https://pkg.go.dev/encoding/json", API: codec.Reflection, Notes: notes,
		New: func() codec.Codec { return prepare },
	}
}

// honestJSON is the codec every planted worker fault wraps.
var honestJSON = codec.Reflect(json.Marshal, json.Unmarshal)

// faultCase is honest json with a fault called before Decode.
type faultCase struct {
	codec.Case
	fault func()
}

func (c *faultCase) Decode(data []byte) error {
	if worker.Serving() {
		c.fault()
	}
	return c.Case.Decode(data)
}

// onDecode returns a Prepare whose Decode on values of trigger (any type
// if nil) calls act once per process.
func onDecode(trigger reflect.Type, act func(*worker.Spec)) codec.Func {
	var once atomic.Bool
	return func(v any) (codec.Case, error) {
		c, err := honestJSON.Prepare(v)
		if err != nil || trigger != nil && elemType(reflect.TypeOf(v)) != trigger {
			return c, err
		}
		return &faultCase{Case: c, fault: func() {
			if once.CompareAndSwap(false, true) {
				act(nil)
			}
		}}, nil
	}
}

// onEveryDecode returns a Prepare whose every Decode calls act.
func onEveryDecode(act func()) codec.Func {
	return func(v any) (codec.Case, error) {
		c, err := honestJSON.Prepare(v)
		if err != nil {
			return c, err
		}
		return &faultCase{Case: c, fault: act}, nil
	}
}

// sawMedium says this process has prepared planted-neighbour on a Medium.
var sawMedium atomic.Bool

func neighbour(v any) (codec.Case, error) {
	c, err := honestJSON.Prepare(v)
	if err != nil {
		return c, err
	}
	switch elemType(reflect.TypeOf(v)) {
	case reflect.TypeFor[dataset.Medium]():
		sawMedium.Store(true)
	case reflect.TypeFor[dataset.Tiny]():
		return &faultCase{Case: c, fault: func() {
			if sawMedium.Load() {
				go func() { panic("planted-neighbour: the Medium benchmark's leftovers") }()
				select {}
			}
		}}, nil
	}
	return c, nil
}

// forge writes, on the worker's events pipe, a result line for job 0's
// decode naming codec on tiny/single, with one sample of iters
// iterations at ns each.
func forge(codecName string, iters int, ns float64) {
	line, _ := json.Marshal(map[string]any{"result": map[string]any{"job": 0, "result": results.Result{
		Op: results.Decode, Codec: codecName, Dataset: "tiny", Shape: "single", Status: results.OK,
		Samples: []results.Sample{{Iters: iters, NsPerOp: ns}},
		NsPerOp: results.Stat{Median: ns, Lo: ns, Hi: ns},
	}}})
	// A raw write: an *os.File for the descriptor would close it when
	// collected.
	syscall.Write(worker.EventsFD, append(line, '\n'))
}

// scaled says planted-scaler has put its pipe in place in this process.
var scaled atomic.Bool

// scaler is planted-scaler's Prepare: honest json whose first Encode in
// a worker interposes on the events pipe (interpose). A fresh process,
// which only decodes, is left alone.
func scaler(v any) (codec.Case, error) {
	c, err := honestJSON.Prepare(v)
	if err != nil {
		return c, err
	}
	return &scalerCase{c}, nil
}

type scalerCase struct{ codec.Case }

func (c *scalerCase) Encode() ([]byte, error) {
	if worker.Serving() && scaled.CompareAndSwap(false, true) {
		if err := interpose(); err != nil {
			return nil, err
		}
	}
	return c.Case.Encode()
}

// scale returns an event line with its result's figures, if it has one,
// divided by ScalerFactor.
func scale(line []byte) []byte {
	var e struct {
		Result *struct {
			Job    int            `json:"job"`
			Result results.Result `json:"result"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &e) != nil || e.Result == nil {
		return line
	}
	r := &e.Result.Result
	for i := range r.Samples {
		r.Samples[i].NsPerOp /= ScalerFactor
		r.Samples[i].CPUNsPerOp /= ScalerFactor
	}
	r.NsPerOp.Median /= ScalerFactor
	r.NsPerOp.Lo /= ScalerFactor
	r.NsPerOp.Hi /= ScalerFactor
	r.PooledNsPerOp /= ScalerFactor
	r.CPUNsPerOp /= ScalerFactor
	r.BusyNs /= ScalerFactor
	b, err := json.Marshal(e)
	if err != nil {
		return line
	}
	return b
}
