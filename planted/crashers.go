package planted

import (
	"encoding/json"
	"math"
	"reflect"
	"runtime"
	"sync/atomic"

	"github.com/serbench/serbench/codec"
)

// elemType returns T for a *T, *[]T or *[]*T.
func elemType(t reflect.Type) reflect.Type {
	t = t.Elem()
	if t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// crasher returns the Prepare of a codec that is honest json except that
// Decode calls crash on values of the trigger type of name.
func crasher(name string, crash func()) codec.Func {
	trigger := Triggers[name]
	honest := codec.Reflect(json.Marshal, json.Unmarshal)
	return func(v any) (codec.Case, error) {
		c, err := honest.Prepare(v)
		if err != nil || elemType(reflect.TypeOf(v)) != trigger {
			return c, err
		}
		return &crashCase{Case: c, crash: crash}, nil
	}
}

// crashCase encodes honestly and crashes in Decode.
type crashCase struct {
	codec.Case
	crash func()
}

func (c *crashCase) Decode(data []byte) error {
	c.crash()
	return c.Case.Decode(data) // not reached
}

// stackSink keeps the result of the recursion used.
var stackSink int

func overflowStack() { stackSink = recurse(0, [8]int{}) }

// recurse calls itself with a growing argument and uses the result, so
// the call is neither a loop nor a tail call: each level takes a frame
// until the goroutine's stack passes its maximum.
//
//go:noinline
func recurse(depth int, frame [8]int) int {
	frame[depth%len(frame)] = depth
	return recurse(depth+1, frame) + frame[0]
}

// oomHold keeps the huge allocation alive.
var oomHold []byte

// exhaustMemory allocates 1 TiB and touches every page. With Linux's
// default (heuristic) overcommit, mapping the heap for it fails at once:
// "fatal error: runtime: out of memory". Where overcommit always succeeds
// (vm.overcommit_memory=1), the touching runs the machine out of memory
// and the kernel kills the process instead.
func exhaustMemory() {
	n := uint64(1) << 40
	if n > math.MaxInt { // 32-bit platforms
		n = math.MaxInt
	}
	oomHold = make([]byte, int(n))
	for i := 0; i < len(oomHold); i += 4096 {
		oomHold[i] = 1
	}
}

// spins counts the iterations of spin; nothing stops it.
var spins atomic.Uint64

// spin burns a core forever: the atomic add cannot be optimised away.
func spin() {
	for {
		spins.Add(1)
	}
}

// writeMapConcurrently writes one map from two goroutines until the
// runtime notices: "fatal error: concurrent map writes". With a single P
// the runtime would rarely see the writes overlap, so it asks for two.
func writeMapConcurrently() {
	if runtime.GOMAXPROCS(0) < 2 {
		runtime.GOMAXPROCS(2)
	}
	m := map[int]int{}
	go func() {
		for i := 0; ; i++ {
			m[i%1024] = i
		}
	}()
	for i := 0; ; i++ {
		m[i%1024] = -i
	}
}
